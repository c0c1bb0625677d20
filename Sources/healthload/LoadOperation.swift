/// One kind of call healthload can drive.
enum LoadOperation: String, CaseIterable, Sendable, Codable, Comparable {
    /// Ping, echoing `--payload-bytes` bytes.
    case ping
    /// EarliestAuthorizedSampleDate for a few types.
    case easd
    /// AuthorizationStatus for one type.
    case status
    /// A Query streaming `--query-samples` samples.
    case query
    /// A Save of `--batch` new samples.
    case save
    /// RequestStatus for the types setup asked for (answered "unnecessary").
    case reqstatus
    /// Any unary app method, with the request `--request METHOD=JSON` gives.
    case custom
    /// An AnchoredQuery without an anchor over the query's range: streams the same `--query-samples`
    /// samples as AnchoredPage items, the last with the new anchor.
    case anchored

    /// The operation's slot in per-operation arrays.
    var index: Int {
        switch self {
        case .ping: 0
        case .easd: 1
        case .status: 2
        case .query: 3
        case .save: 4
        case .reqstatus: 5
        case .custom: 6
        case .anchored: 7
        }
    }

    /// The broker method it calls.
    var methodName: String {
        switch self {
        case .ping: "Ping"
        case .easd: "EarliestAuthorizedSampleDate"
        case .status: "AuthorizationStatus"
        case .query: "Query"
        case .save: "Save"
        case .reqstatus: "RequestStatus"
        case .custom: "the --request method"
        case .anchored: "AnchoredQuery"
        }
    }

    /// Orders as declared.
    static func < (lhs: LoadOperation, rhs: LoadOperation) -> Bool { lhs.index < rhs.index }
}
