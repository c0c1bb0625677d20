/// An error from the broker: a gRPC-style status, a HealthKit-style domain code and a message.
public struct BrokerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The gRPC-style status code.
    public var code: StatusCode
    /// The HealthKit-style detail.
    public var domain: DomainCode
    /// A human-readable explanation; never contains tokens or sample values.
    public var message: String

    /// Creates an error with an explicit status, domain and message.
    public init(code: StatusCode, domain: DomainCode = .none, message: String) {
        self.code = code
        self.domain = domain
        self.message = message
    }

    /// Creates an error whose status is the one `domain` travels with.
    public init(_ domain: DomainCode, _ message: String) {
        self.init(code: domain.statusCode, domain: domain, message: message)
    }

    /// `CODE (domain): message`.
    public var description: String {
        domain == .none ? "\(code): \(message)" : "\(code) (\(domain)): \(message)"
    }
}

extension BrokerError {
    /// `INVALID_ARGUMENT` with the invalid-argument domain code.
    public static func invalidArgument(_ message: String) -> BrokerError { BrokerError(.invalidArgument, message) }
    /// `UNAUTHENTICATED` with the unauthenticated domain code.
    public static func unauthenticated(_ message: String) -> BrokerError { BrokerError(.unauthenticated, message) }
    /// `NOT_FOUND` without a domain code.
    public static func notFound(_ message: String) -> BrokerError { BrokerError(code: .notFound, message: message) }
    /// `ALREADY_EXISTS` without a domain code.
    public static func alreadyExists(_ message: String) -> BrokerError { BrokerError(code: .alreadyExists, message: message) }
    /// `INTERNAL` without a domain code.
    public static func `internal`(_ message: String) -> BrokerError { BrokerError(code: .internal, message: message) }
    /// `UNAVAILABLE` with the database-inaccessible domain code.
    public static func databaseInaccessible(_ message: String) -> BrokerError { BrokerError(.databaseInaccessible, message) }
    /// `UNAVAILABLE` with the shutting-down domain code.
    public static func shuttingDown(_ message: String = "the broker is shutting down") -> BrokerError {
        BrokerError(.brokerShuttingDown, message)
    }
}
