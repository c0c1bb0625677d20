import BrokerModel
import BrokerWire

/// Generated frames for the client's tests, which drive the call table and the connection with what
/// the client reads from the socket.
enum ProtoFrames {
    /// A ServerFrame answering `callID` with `status` (nil: OK) and `response`.
    static func frame(_ callID: UInt64, status: Status? = nil, response: Proto.ServerFrame.Response? = nil) -> Proto.ServerFrame {
        .with {
            $0.callID = callID
            $0.status = status?.proto
            $0.response = response
        }
    }

    /// A Ping request (no delay) echoing `payload`.
    static func ping(_ payload: [UInt8] = []) -> Proto.Call.Request {
        .ping(PingRequest(payload: payload).proto)
    }

    /// A ping reply.
    static func pong(_ response: PingResponse) -> Proto.ServerFrame.Response {
        .ping(response.proto)
    }

    /// A stream item holding a ping reply.
    static func pingItem(_ response: PingResponse) -> Proto.StreamItem {
        .with { $0.item = .ping(response.proto) }
    }
}
