/// A HealthKit-style error detail (after `HKError.Code`); each travels with one status code.
public enum DomainCode: Int32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No domain detail.
    case none = 0
    /// A request field is malformed or out of range (with `INVALID_ARGUMENT`).
    case invalidArgument = 1
    /// The person denied the access the call needs (with `PERMISSION_DENIED`).
    case authorizationDenied = 2
    /// The app never asked for the access the call needs (with `FAILED_PRECONDITION`).
    case authorizationNotDetermined = 3
    /// The query matched nothing to compute over (with `NOT_FOUND`).
    case noData = 4
    /// The person dismissed the authorization prompt (with `CANCELLED`).
    case userCanceled = 5
    /// The broker's database cannot be used right now (with `UNAVAILABLE`).
    case databaseInaccessible = 6
    /// The anchor's history has been pruned (with `FAILED_PRECONDITION`).
    case anchorExpired = 7
    /// Unknown app or wrong token (with `UNAUTHENTICATED`).
    case unauthenticated = 8
    /// Too many authorization requests are queued (with `RESOURCE_EXHAUSTED`).
    case requestPending = 9
    /// The broker is stopping (with `UNAVAILABLE`).
    case brokerShuttingDown = 10
    /// A framing or encoding error on the connection (with `INVALID_ARGUMENT` or `RESOURCE_EXHAUSTED`).
    case protocolError = 11

    /// A snake-case name for logs and tools, e.g. `authorization_denied`.
    public var description: String {
        switch self {
        case .none: "none"
        case .invalidArgument: "invalid_argument"
        case .authorizationDenied: "authorization_denied"
        case .authorizationNotDetermined: "authorization_not_determined"
        case .noData: "no_data"
        case .userCanceled: "user_canceled"
        case .databaseInaccessible: "database_inaccessible"
        case .anchorExpired: "anchor_expired"
        case .unauthenticated: "unauthenticated"
        case .requestPending: "request_pending"
        case .brokerShuttingDown: "broker_shutting_down"
        case .protocolError: "protocol_error"
        }
    }

    /// The status code this domain code travels with.
    public var statusCode: StatusCode {
        switch self {
        case .none: .unknown
        case .invalidArgument: .invalidArgument
        case .authorizationDenied: .permissionDenied
        case .authorizationNotDetermined: .failedPrecondition
        case .noData: .notFound
        case .userCanceled: .cancelled
        case .databaseInaccessible: .unavailable
        case .anchorExpired: .failedPrecondition
        case .unauthenticated: .unauthenticated
        case .requestPending: .resourceExhausted
        case .brokerShuttingDown: .unavailable
        case .protocolError: .invalidArgument
        }
    }

    /// Maps a wire value to a code; unknown values become `.none`.
    public init(wireValue: Int32) {
        self = DomainCode(rawValue: wireValue) ?? .none
    }
}
