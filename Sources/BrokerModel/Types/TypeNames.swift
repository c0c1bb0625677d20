/// Formats lists of types for error messages and explanations.
package enum TypeNames {
    /// `"A", "B"`: quoted, so an empty or odd identifier stays visible.
    package static func quoted(_ types: [ObjectType]) -> String {
        types.map { "\"\($0.identifier)\"" }.joined(separator: ", ")
    }

    /// The types, each once, sorted by identifier.
    package static func uniqueSorted(_ types: [ObjectType]) -> [ObjectType] {
        Array(Set(types)).sorted()
    }
}
