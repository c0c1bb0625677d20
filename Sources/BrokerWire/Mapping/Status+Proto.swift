package import BrokerModel

// Status between the model and the .proto.
extension Status {
    /// The status a decoded Status holds; code and domain numbers this build does not know become
    /// `.unknown` and `.none`.
    @inline(__always)
    package init(proto: Proto.Status) {
        self.init(
            code: StatusCode(wireValue: proto.code.rawValue),
            domain: DomainCode(wireValue: proto.domain.rawValue),
            message: proto.message)
    }

    /// The status as a .proto message.
    @inline(__always)
    package var proto: Proto.Status {
        var message = Proto.Status()
        message.code = Proto.StatusCode(rawValue: code.rawValue)
        message.domain = Proto.DomainCode(rawValue: domain.rawValue)
        message.message = self.message
        return message
    }
}

extension Proto.Status {
    /// The error this status stands for; nil for OK.
    @inline(__always)
    package var error: BrokerError? { Status(proto: self).error }
}
