import HealthBrokerProto

// PingRequest, PingStreamRequest and PingResponse in both directions.
extension WireCodec {
    /// Runs `body` with the C form of `request`, valid only inside `body`.
    static func withCPingRequest<R>(
        _ request: PingRequest, _ body: (UnsafeMutablePointer<Healthbroker__V1__PingRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__PingRequest()
        healthbroker__v1__ping_request__init(&message)
        message.delay_us = request.delayMicros
        return request.payload.withUnsafeBufferPointer { payload in
            message.payload = binaryData(payload)
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked PingRequest.
    static func pingRequest(_ message: UnsafePointer<Healthbroker__V1__PingRequest>) -> PingRequest {
        PingRequest(delayMicros: message.pointee.delay_us, payload: bytes(message.pointee.payload))
    }

    /// Runs `body` with the C form of `request`, valid only inside `body`.
    static func withCPingStreamRequest<R>(
        _ request: PingStreamRequest, _ body: (UnsafeMutablePointer<Healthbroker__V1__PingStreamRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__PingStreamRequest()
        healthbroker__v1__ping_stream_request__init(&message)
        message.count = request.count
        return request.payload.withUnsafeBufferPointer { payload in
            message.payload = binaryData(payload)
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked PingStreamRequest.
    static func pingStreamRequest(_ message: UnsafePointer<Healthbroker__V1__PingStreamRequest>) -> PingStreamRequest {
        PingStreamRequest(count: message.pointee.count, payload: bytes(message.pointee.payload))
    }

    /// Runs `body` with the C form of `response`, valid only inside `body`.
    static func withCPingResponse<R>(
        _ response: PingResponse, _ body: (UnsafeMutablePointer<Healthbroker__V1__PingResponse>) -> R
    ) -> R {
        var message = Healthbroker__V1__PingResponse()
        healthbroker__v1__ping_response__init(&message)
        message.broker_time_us = response.brokerTimeMicros
        message.sequence = response.sequence
        return response.payload.withUnsafeBufferPointer { payload in
            message.payload = binaryData(payload)
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked PingResponse.
    static func pingResponse(_ message: UnsafePointer<Healthbroker__V1__PingResponse>) -> PingResponse {
        PingResponse(
            payload: bytes(message.pointee.payload),
            brokerTimeMicros: message.pointee.broker_time_us,
            sequence: message.pointee.sequence)
    }
}
