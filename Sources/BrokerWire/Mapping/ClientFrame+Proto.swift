import BrokerModel

// ClientFrame and Call between the model and the .proto.
extension ClientFrame {
    /// The frame a decoded ClientFrame holds; throws "undecodable ClientFrame" when no frame kind is set.
    init(proto: Proto.ClientFrame) throws(BrokerError) {
        var proto = proto
        try self.init(taking: &proto)
    }

    /// `init(proto:)`, moving the frame kind out of `proto` instead of copying it (a copy of the
    /// oneof costs a switch over its cases and a retain per field, per frame).
    init(taking proto: inout Proto.ClientFrame) throws(BrokerError) {
        switch proto.kind.take() {
        case .call(var call)?: self = .call(Call(taking: &call))
        case .cancel(let cancel)?: self = .cancel(callID: cancel.callID)
        case .credit(let credit)?: self = .credit(callID: credit.callID, items: credit.items)
        case nil: throw WireCodec.undecodable("ClientFrame")
        }
    }

    /// The frame as a .proto message.
    var proto: Proto.ClientFrame {
        var message = Proto.ClientFrame()
        switch self {
        case .call(let call):
            message.kind = .call(call.proto)
        case .cancel(let callID):
            var cancel = Proto.Cancel()
            cancel.callID = callID
            message.kind = .cancel(cancel)
        case .credit(let callID, let items):
            var credit = Proto.Credit()
            credit.callID = callID
            credit.items = items
            message.kind = .credit(credit)
        }
        return message
    }
}

extension Call {
    /// The call a decoded Call holds.
    init(proto: Proto.Call) {
        var proto = proto
        self.init(taking: &proto)
    }

    /// `init(proto:)`, moving the request out of `proto` instead of copying it.
    init(taking proto: inout Proto.Call) {
        self.init(
            callID: proto.callID, timeoutMicros: proto.timeoutMicros, initialCredit: proto.initialCredit,
            request: proto.request.take())
    }

    /// The call as a .proto message.
    var proto: Proto.Call {
        var message = Proto.Call()
        message.callID = callID
        message.timeoutMicros = timeoutMicros
        message.initialCredit = initialCredit
        message.request = request
        return message
    }
}
