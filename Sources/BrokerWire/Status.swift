public import BrokerModel

/// The status that ends a call on the wire: OK, or an error's code, domain and message.
public struct Status: Sendable, Hashable {
    /// The gRPC-style status code.
    public var code: StatusCode
    /// The HealthKit-style detail.
    public var domain: DomainCode
    /// A human-readable explanation.
    public var message: String

    /// Creates a status.
    public init(code: StatusCode, domain: DomainCode = .none, message: String = "") {
        self.code = code
        self.domain = domain
        self.message = message
    }

    /// Creates the status that carries `error`.
    public init(_ error: BrokerError) {
        self.init(code: error.code, domain: error.domain, message: error.message)
    }

    /// The plain OK status.
    public static let ok = Status(code: .ok)

    /// The error this status stands for, or nil when it is OK.
    public var error: BrokerError? {
        code == .ok ? nil : BrokerError(code: code, domain: domain, message: message)
    }
}
