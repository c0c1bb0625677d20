import HealthBrokerProto

// HelloRequest and HelloResponse in both directions.
extension WireCodec {
    /// Runs `body` with the C form of `request`, valid only inside `body`.
    static func withCHelloRequest<R>(
        _ request: HelloRequest, _ body: (UnsafeMutablePointer<Healthbroker__V1__HelloRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__HelloRequest()
        healthbroker__v1__hello_request__init(&message)
        message.protocol_version = request.protocolVersion
        return request.appID.withCString { appID in
            request.appToken.withCString { appToken in
                message.app_id = field(appID)
                message.app_token = field(appToken)
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked HelloRequest.
    static func helloRequest(_ message: UnsafePointer<Healthbroker__V1__HelloRequest>) -> HelloRequest {
        HelloRequest(
            appID: string(message.pointee.app_id),
            appToken: string(message.pointee.app_token),
            protocolVersion: message.pointee.protocol_version)
    }

    /// Runs `body` with the C form of `response`, valid only inside `body`.
    static func withCHelloResponse<R>(
        _ response: HelloResponse, _ body: (UnsafeMutablePointer<Healthbroker__V1__HelloResponse>) -> R
    ) -> R {
        var message = Healthbroker__V1__HelloResponse()
        healthbroker__v1__hello_response__init(&message)
        message.protocol_version = response.protocolVersion
        message.max_frame_bytes = response.maxFrameBytes
        message.broker_time_us = response.brokerTimeMicros
        message.max_calls_in_flight = response.maxCallsInFlight
        return response.brokerVersion.withCString { version in
            message.broker_version = field(version)
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked HelloResponse.
    static func helloResponse(_ message: UnsafePointer<Healthbroker__V1__HelloResponse>) -> HelloResponse {
        HelloResponse(
            brokerVersion: string(message.pointee.broker_version),
            protocolVersion: message.pointee.protocol_version,
            maxFrameBytes: message.pointee.max_frame_bytes,
            brokerTimeMicros: message.pointee.broker_time_us,
            maxCallsInFlight: message.pointee.max_calls_in_flight)
    }
}
