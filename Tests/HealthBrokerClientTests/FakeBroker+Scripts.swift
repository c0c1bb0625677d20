import BrokerWire
import HealthBrokerClient

extension FakeBroker {
    /// What the fake answers Hello with.
    static let helloResponse = HelloResponse(
        brokerVersion: "9.9.9", protocolVersion: 1, maxFrameBytes: 4 << 20,
        brokerTimeMicros: 1_700_000_000_250_000, maxCallsInFlight: 128)

    /// Answers every ping at once, echoing its payload at broker time 1 s; leaves other calls open.
    static let echo: Answer = { call in
        guard case .ping(let ping) = call.request else { return [] }
        return [ServerFrame(callID: call.callID, response: .ping(PingResponse(payload: ping.payload, brokerTimeMicros: 1_000_000, sequence: 0)))]
    }

    /// A fake that answers every call with the single response `respond` gives for its request.
    convenience init(respond: @escaping @Sendable (Proto.Call.Request) -> Proto.ServerFrame.Response?) throws {
        try self.init { call in
            guard let request = call.request, let response = respond(request) else { return [] }
            return [ServerFrame(callID: call.callID, response: response)]
        }
    }

    /// A fake that ends every call with `error`.
    convenience init(failing error: BrokerError) throws {
        try self.init { call in [ServerFrame(callID: call.callID, status: Status(error))] }
    }

    /// A connected app session as "com.example.app", reconnecting per `reconnect` with `timing`.
    func connectApp(reconnect: ReconnectPolicy? = nil, timing: ReconnectTiming = .live) async throws -> HealthStore {
        try await HealthStore.connect(socketPath: socketPath, appID: "com.example.app", appToken: "token", reconnect: reconnect, timing: timing)
    }

    /// A connected admin session.
    func connectAdmin() async throws -> BrokerAdmin {
        try await BrokerAdmin.connect(socketPath: socketPath)
    }
}
