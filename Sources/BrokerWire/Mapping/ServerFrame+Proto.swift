import BrokerModel

// ServerFrame between the model and the .proto.
extension ServerFrame {
    /// The frame a decoded ServerFrame holds: an absent status is nil, and so is a response case this
    /// build does not know.
    init(proto: Proto.ServerFrame) {
        self.init(callID: proto.callID, status: proto.status.map { Status(proto: $0) }, response: proto.response)
    }

    /// The frame as a .proto message.
    var proto: Proto.ServerFrame {
        var message = Proto.ServerFrame()
        message.callID = callID
        message.status = status?.proto
        message.response = response
        return message
    }
}
