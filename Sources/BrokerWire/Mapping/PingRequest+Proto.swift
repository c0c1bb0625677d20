// PingRequest, PingStreamRequest and PingResponse between the model and the .proto.
extension PingRequest {
    /// The request a decoded PingRequest holds.
    @inline(__always)
    package init(proto: Proto.PingRequest) {
        self.init(delayMicros: proto.delayMicros, payload: proto.payload)
    }

    /// The request as a .proto message.
    @inline(__always)
    package var proto: Proto.PingRequest {
        var message = Proto.PingRequest()
        message.delayMicros = delayMicros
        message.payload = payload
        return message
    }
}

extension PingStreamRequest {
    /// The request a decoded PingStreamRequest holds.
    package init(proto: Proto.PingStreamRequest) {
        self.init(count: proto.count, payload: proto.payload)
    }

    /// The request as a .proto message.
    package var proto: Proto.PingStreamRequest {
        var message = Proto.PingStreamRequest()
        message.count = count
        message.payload = payload
        return message
    }
}

extension PingResponse {
    /// The response a decoded PingResponse holds.
    @inline(__always)
    package init(proto: Proto.PingResponse) {
        self.init(payload: proto.payload, brokerTimeMicros: proto.brokerTimeMicros, sequence: proto.sequence)
    }

    /// The response as a .proto message.
    @inline(__always)
    package var proto: Proto.PingResponse {
        var message = Proto.PingResponse()
        message.payload = payload
        message.brokerTimeMicros = brokerTimeMicros
        message.sequence = sequence
        return message
    }
}
