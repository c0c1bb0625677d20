public import BrokerModel

/// One date (µs since the epoch) per type: an EarliestAuthorizedSampleDate reply's entries.
///
/// It holds the entries as they arrived, in a plain array, and means what a dictionary built from
/// them means: a type that comes twice takes its last date. Equality and hashing go by that
/// meaning. The client builds its `[ObjectType: Date]` answer straight from the entries, so a reply
/// costs one dictionary, not one for the wire and another for the answer.
public struct TypeDates: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One type and its date.
    public struct Entry: Sendable, Hashable {
        /// The type.
        public var type: ObjectType
        /// Its date, µs since the epoch.
        public var dateMicros: Int64

        /// An entry for `type` at `dateMicros`.
        public init(type: ObjectType, dateMicros: Int64) {
            self.type = type
            self.dateMicros = dateMicros
        }
    }

    /// The entries in the order they were given or decoded; a repeated type's last entry counts.
    public let entries: [Entry]

    /// Dates from `entries`, kept in their order.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The dates of `dictionary`.
    public init(_ dictionary: [ObjectType: Int64]) {
        entries = dictionary.map { Entry(type: $0.key, dateMicros: $0.value) }
    }

    /// The dates of a literal such as `[.stepCount: 1_700_000_000_000_000]`.
    public init(dictionaryLiteral elements: (ObjectType, Int64)...) {
        entries = elements.map { Entry(type: $0.0, dateMicros: $0.1) }
    }

    /// True when no type has a date.
    public var isEmpty: Bool { entries.isEmpty }

    /// The dates as a dictionary (a repeated type keeps its last date).
    public var dictionary: [ObjectType: Int64] { mapValues { $0 } }

    /// A dictionary of `transform` applied to each type's date, built once from the entries (a
    /// repeated type keeps its last date). Inlinable, so that callers get it specialized for their
    /// `Value` rather than the generic form.
    @inlinable
    public func mapValues<Value>(_ transform: (Int64) throws -> Value) rethrows -> [ObjectType: Value] {
        guard !entries.isEmpty else { return [:] }
        var result: [ObjectType: Value] = Dictionary(minimumCapacity: entries.count)
        for entry in entries { result[entry.type] = try transform(entry.dateMicros) }
        return result
    }

    /// Equal when both mean the same dictionary, whatever the order of the entries.
    public static func == (lhs: TypeDates, rhs: TypeDates) -> Bool {
        lhs.entries == rhs.entries || lhs.dictionary == rhs.dictionary
    }

    /// Hashes the dictionary the entries mean (consistent with `==`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(dictionary)
    }
}
