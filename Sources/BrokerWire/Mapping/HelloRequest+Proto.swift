// HelloRequest and HelloResponse between the model and the .proto.
extension HelloRequest {
    /// The request a decoded HelloRequest holds.
    package init(proto: Proto.HelloRequest) {
        self.init(appID: proto.appID, appToken: proto.appToken, protocolVersion: proto.protocolVersion)
    }

    /// The request as a .proto message.
    package var proto: Proto.HelloRequest {
        var message = Proto.HelloRequest()
        message.appID = appID
        message.appToken = appToken
        message.protocolVersion = protocolVersion
        return message
    }
}

extension HelloResponse {
    /// The response a decoded HelloResponse holds.
    package init(proto: Proto.HelloResponse) {
        self.init(
            brokerVersion: proto.brokerVersion, protocolVersion: proto.protocolVersion,
            maxFrameBytes: proto.maxFrameBytes, brokerTimeMicros: proto.brokerTimeMicros,
            maxCallsInFlight: proto.maxCallsInFlight)
    }

    /// The response as a .proto message.
    package var proto: Proto.HelloResponse {
        var message = Proto.HelloResponse()
        message.brokerVersion = brokerVersion
        message.protocolVersion = protocolVersion
        message.maxFrameBytes = maxFrameBytes
        message.brokerTimeMicros = brokerTimeMicros
        message.maxCallsInFlight = maxCallsInFlight
        return message
    }
}
