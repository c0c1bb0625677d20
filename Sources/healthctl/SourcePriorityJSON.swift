/// The JSON answer to `sources priority`: the type and its source order, best first.
struct SourcePriorityJSON: Encodable, Equatable {
    /// The type's identifier.
    var type: String
    /// The source app ids, best first (empty when no order is set).
    var appIDs: [String]

    /// The JSON keys, snake_case.
    private enum CodingKeys: String, CodingKey {
        case type, appIDs = "app_ids"
    }
}
