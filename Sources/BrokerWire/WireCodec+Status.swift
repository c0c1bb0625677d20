import HealthBrokerProto

// Status in both directions.
extension WireCodec {
    /// Runs `body` with the C form of `status` (nil when absent), valid only inside `body`.
    static func withCStatus<R>(_ status: Status?, _ body: (UnsafeMutablePointer<Healthbroker__V1__Status>?) -> R) -> R {
        guard let status else { return body(nil) }
        var message = Healthbroker__V1__Status()
        healthbroker__v1__status__init(&message)
        message.code = cStatusCode(status.code)
        message.domain = cDomainCode(status.domain)
        return status.message.withCString { text in
            message.message = field(text)
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked Status; unknown code and domain numbers map to `.unknown` / `.none`.
    static func status(_ message: UnsafePointer<Healthbroker__V1__Status>) -> Status {
        Status(
            code: statusCode(message.pointee.code),
            domain: domainCode(message.pointee.domain),
            message: string(message.pointee.message))
    }
}
