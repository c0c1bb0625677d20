import BrokerModel

// ServerFrame between the model and the .proto.
extension ServerFrame {
    /// The frame a decoded ServerFrame holds: an absent status is nil, and so is a response case this
    /// build does not know. Throws "undecodable ServerFrame" for a response it cannot map (see
    /// `Response.init(proto:)`).
    init(proto: Proto.ServerFrame) throws(BrokerError) {
        var response: Response?
        if let message = proto.response {
            do {
                response = try Response(proto: message)
            } catch {
                throw WireCodec.undecodable("ServerFrame")
            }
        }
        self.init(callID: proto.callID, status: proto.status.map { Status(proto: $0) }, response: response)
    }

    /// The frame as a .proto message.
    var proto: Proto.ServerFrame {
        var message = Proto.ServerFrame()
        message.callID = callID
        message.status = status?.proto
        message.response = response?.proto
        return message
    }
}
