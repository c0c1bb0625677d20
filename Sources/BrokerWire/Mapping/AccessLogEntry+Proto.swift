package import BrokerModel

// AccessLogEntry (AdminAccessLog) between the model and the .proto.
extension AccessLogEntry {
    /// The entry a decoded AccessLogEntry holds.
    package init(proto: Proto.AccessLogEntry) {
        self.init(
            atMicros: proto.atMicros, appID: proto.appID, operation: proto.operation,
            type: ObjectType(protoIdentifier: proto.type), sampleCount: proto.sampleCount, method: proto.method)
    }

    /// The entry as a .proto message.
    package var proto: Proto.AccessLogEntry {
        var message = Proto.AccessLogEntry()
        message.atMicros = atMicros
        message.appID = appID
        message.operation = operation
        message.type = type.identifier
        message.sampleCount = sampleCount
        message.method = method
        return message
    }
}
