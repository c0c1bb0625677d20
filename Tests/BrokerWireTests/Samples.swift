import BrokerCore
@testable import BrokerWire

/// Messages with non-trivial field values for round-trip tests.
enum Samples {
    static let unicode = "Grüße aus Zürich — 心拍数 🫀 naïve ½"
    static let bigPayload = patternBytes((1 << 20) + 3, seed: 5)

    static let apps: [AppInfo] = [
        AppInfo(
            appID: "com.example.steps", name: "Steps 👣", readUsage: "Zählt Schritte", shareUsage: "",
            pinnedUID: 1000, createdMicros: 1_700_000_000_123_456, tokenRotatedMicros: 1_700_000_100_000_000),
        AppInfo(appID: "", name: "", pinnedUID: nil),
        AppInfo(
            appID: "org.example.睡眠", name: unicode, readUsage: String(repeating: "r", count: 3000),
            shareUsage: "writes sleep", pinnedUID: 0, createdMicros: -1, tokenRotatedMicros: Int64.max),
        AppInfo(appID: "max", name: "uid max", pinnedUID: UInt32.max, createdMicros: Int64.min),
    ]

    static let clientFrames: [ClientFrame] = [
        .call(Call(
            callID: 1, timeoutMicros: 250_000, initialCredit: 0,
            request: .hello(HelloRequest(appID: "com.example.steps", appToken: "tök-🔑-\(unicode)", protocolVersion: 1)))),
        .call(Call(callID: 2, request: .hello(HelloRequest(appID: "", appToken: "", protocolVersion: 0)))),
        .call(Call(
            callID: UInt64.max, timeoutMicros: Int64.max, initialCredit: UInt32.max,
            request: .ping(PingRequest(delayMicros: 1_500, payload: [0, 1, 2, 0, 255])))),
        .call(Call(callID: 3, timeoutMicros: Int64.min, request: .ping(PingRequest(delayMicros: -1, payload: [])))),
        .call(Call(callID: 4, request: .ping(PingRequest(payload: bigPayload)))),
        .call(Call(
            callID: 5, initialCredit: 16,
            request: .pingStream(PingStreamRequest(count: 1_000, payload: patternBytes(300, seed: 1))))),
        .call(Call(callID: 6, request: .pingStream(PingStreamRequest(count: 0)))),
        .call(Call(
            callID: 100,
            request: .adminAddApp(AppRegistration(
                appID: "com.example.心", name: unicode, readUsage: "reads heart rate",
                shareUsage: "écrit des données", pinnedUID: nil)))),
        .call(Call(callID: 101, request: .adminAddApp(AppRegistration(appID: "a", name: "", pinnedUID: 0)))),
        .call(Call(
            callID: 102,
            request: .adminAddApp(AppRegistration(
                appID: "b", name: "B", readUsage: "", shareUsage: "s", pinnedUID: UInt32.max)))),
        .call(Call(callID: 103, request: .adminListApps)),
        .call(Call(callID: 104, request: .adminRemoveApp(appID: "com.example.ünïcode"))),
        .call(Call(callID: 105, request: .adminRemoveApp(appID: ""))),
        .call(Call(callID: 106, request: .adminRotateToken(appID: "org.example.睡眠"))),
        .call(Call(callID: 107, request: .adminBrokerInfo)),
        .call(Call(callID: 108, timeoutMicros: 9, request: .unknown)),
        .call(Call(callID: 0, request: .unknown)),
        .cancel(callID: 42),
        .cancel(callID: 0),
        .cancel(callID: UInt64.max),
        .credit(callID: 7, items: 64),
        .credit(callID: 1, items: 0),
        .credit(callID: UInt64.max, items: UInt32.max),
    ]

    static let serverFrames: [ServerFrame] = [
        ServerFrame(
            callID: 1,
            response: .hello(HelloResponse(
                brokerVersion: "0.1.0-β", protocolVersion: 1, maxFrameBytes: 4 << 20,
                brokerTimeMicros: 1_700_000_000_000_001, maxCallsInFlight: 256))),
        ServerFrame(
            callID: 2,
            response: .hello(HelloResponse(
                brokerVersion: "", protocolVersion: 0, maxFrameBytes: 0, brokerTimeMicros: Int64.min,
                maxCallsInFlight: UInt32.max))),
        ServerFrame(
            callID: 3,
            response: .ping(PingResponse(payload: [9, 0, 8, 0], brokerTimeMicros: 1_234, sequence: 0))),
        ServerFrame(callID: 4, response: .ping(PingResponse(payload: bigPayload, brokerTimeMicros: -5, sequence: 17))),
        ServerFrame(callID: 5, response: .streamItem(.ping(PingResponse()))),
        ServerFrame(
            callID: 5,
            response: .streamItem(.ping(PingResponse(
                payload: patternBytes(300, seed: 2), brokerTimeMicros: Int64.max, sequence: UInt64.max)))),
        ServerFrame(callID: 5, status: .ok),
        ServerFrame(callID: 100, response: .adminAddApp(AppCredentials(app: apps[0], token: "hb_Zm9vYmFy_🔑"))),
        ServerFrame(callID: 101, response: .adminAddApp(AppCredentials(app: apps[1], token: ""))),
        ServerFrame(callID: 102, response: .adminListApps([])),
        ServerFrame(callID: 103, response: .adminListApps(apps)),
        ServerFrame(callID: 104, response: .adminRemoveApp(connectionsClosed: 0)),
        ServerFrame(callID: 105, response: .adminRemoveApp(connectionsClosed: 3)),
        ServerFrame(callID: 106, response: .adminRotateToken(AppCredentials(app: apps[2], token: "new-token"))),
        ServerFrame(callID: 107, response: .adminRotateToken(AppCredentials(app: apps[3], token: unicode))),
        ServerFrame(
            callID: 108,
            response: .adminBrokerInfo(BrokerInfo(
                brokerVersion: "0.1.0", startedMicros: 1_699_999_999_000_000, appConnections: 12,
                adminConnections: 1, callsServed: UInt64.max, dataDirectory: "/home/zoë/.local/share/健康",
                brokerTimeMicros: 1_700_000_000_000_000))),
        ServerFrame(
            callID: 109,
            response: .adminBrokerInfo(BrokerInfo(
                brokerVersion: "", startedMicros: 0, appConnections: 0, adminConnections: 0, callsServed: 0,
                dataDirectory: "", brokerTimeMicros: 0))),
        ServerFrame(
            callID: 9, status: Status(code: .permissionDenied, domain: .authorizationDenied, message: "denied ☂ \(unicode)")),
        ServerFrame(callID: 10, status: Status(code: .deadlineExceeded, message: "")),
        ServerFrame(callID: 11, status: Status(code: .internal, message: "no domain here")),
        ServerFrame(
            callID: 0,
            status: Status(
                code: .resourceExhausted, domain: .protocolError,
                message: "frame of 5000000 bytes exceeds the limit of 4194304 bytes")),
        ServerFrame(
            callID: 12, status: Status(code: .unavailable, domain: .brokerShuttingDown, message: "bye"),
            response: .ping(PingResponse(payload: [1]))),
        ServerFrame(callID: 13),
        ServerFrame(callID: 0),
    ]
}
