import Foundation
import BrokerModel
import BrokerWire
import TestSupport
import Testing

/// `healthctl call` and `healthctl describe` against a real daemon: admin and app methods by name
/// with JSON requests, a stream as JSON lines, a broker error as its code and exit status 1.
@Suite("healthctl call and describe")
struct CallCommandTests {
    @Test func callsAdminAndAppMethodsByName() async throws {
        let daemon = try await DaemonProcess()
        let credentials = try await daemon.registerApp("com.example.caller")

        let apps = try await SetGrantTests.healthctl(daemon, ["call", "AdminListApps", "{}"])
        #expect(apps.status == 0, "\(apps.errors)")
        let listed = try Proto.AdminListAppsResponse(jsonText: apps.output)
        #expect(listed.apps.map(\.appID) == ["com.example.caller"])
        #expect(apps.output.contains("\n  \"apps\": ["))  // pretty by default

        let compact = try await SetGrantTests.healthctl(daemon, ["call", "adminlistapps", "--compact"])
        #expect(compact.status == 0)
        #expect(compact.output.hasPrefix(#"{"apps":[{"appId":"com.example.caller""#))

        let permitted = try await SetGrantTests.healthctl(
            daemon, ["call", "EarliestPermittedSampleDate", "{}", "--app", credentials.app.appID, "--token", credentials.token,
                     "--socket", daemon.appSocket])
        #expect(permitted.status == 0, "\(permitted.errors)")
        #expect(try Proto.EarliestPermittedSampleDateResponse(jsonText: permitted.output).dateMicros != 0)

        let missingToken = try await SetGrantTests.healthctl(daemon, ["call", "EarliestPermittedSampleDate"])
        #expect(missingToken.status == 64)
        #expect(missingToken.errors.contains("app socket only"), "\(missingToken.errors)")

        let wrongToken = try await SetGrantTests.healthctl(
            daemon, ["call", "EarliestPermittedSampleDate", "--app", credentials.app.appID, "--token", "nope",
                     "--socket", daemon.appSocket])
        #expect(wrongToken.status == 1)
        #expect(wrongToken.errors.hasPrefix("healthctl: UNAUTHENTICATED"))
    }

    @Test func aStreamPrintsOneJSONLinePerItem() async throws {
        let daemon = try await DaemonProcess()
        let stream = try await SetGrantTests.healthctl(daemon, ["call", "PingStream", #"{"count": 3, "payload": "AQI="}"#])
        #expect(stream.status == 0, "\(stream.errors)")
        let lines = stream.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        for (index, line) in lines.enumerated() {
            let item = try Proto.PingResponse(jsonText: line)
            #expect(item.sequence == UInt64(index))
            #expect(item.payload == [1, 2])
        }
    }

    @Test func errorsAndBadInput() async throws {
        let daemon = try await DaemonProcess()
        let unknownApp = try await SetGrantTests.healthctl(daemon, ["call", "AdminListGrants", #"{"appId": "com.example.nobody"}"#])
        #expect(unknownApp.status == 1)
        #expect(unknownApp.errors.hasPrefix("healthctl: NOT_FOUND"), "\(unknownApp.errors)")
        #expect(unknownApp.output.isEmpty)

        let unknownMethod = try await SetGrantTests.healthctl(daemon, ["call", "NoSuchMethod", "{}"])
        #expect(unknownMethod.status == 64)
        #expect(unknownMethod.errors.contains("unknown method 'NoSuchMethod'"))
        for method in ProtoMethod.allCases {
            #expect(unknownMethod.errors.contains(" \(method.name)"), "the list names \(method.name)")
        }

        let badJSON = try await SetGrantTests.healthctl(daemon, ["call", "AdminListGrants", #"{"app": 1}"#])
        #expect(badJSON.status == 64)
        #expect(badJSON.errors.contains("$.app: unknown field of AdminListGrantsRequest"))

        let file = daemon.directory + "/request.json"
        try #"{"app_id": "com.example.nobody"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let fromFile = try await SetGrantTests.healthctl(daemon, ["call", "AdminListGrants", "@" + file])
        #expect(fromFile.status == 1)
        #expect(fromFile.errors.hasPrefix("healthctl: NOT_FOUND"))
    }

    /// Every admin method of the generated method table is callable by name, a new one included,
    /// with no command of its own: each `{}` request reaches the broker and comes back as a JSON
    /// reply (exit 0) or as the broker's error (exit 1), never as healthctl's usage error (64).
    @Test func everyAdminMethodIsCallableByName() async throws {
        let daemon = try await DaemonProcess()
        _ = try await daemon.registerApp("com.example.caller")
        for method in ProtoMethod.allCases where method.socket == .admin {
            // A consent agent's stream does not end by itself: its deadline ends it.
            let timeout = method == .adminWatchPrompts ? ["--timeout", "0.5"] : []
            let result = try await SetGrantTests.healthctl(daemon, ["call", method.name, "{}", "--compact"] + timeout)
            #expect(result.status == 0 || result.status == 1, "\(method.name): \(result.status) \(result.errors)")
            if result.status == 0 {
                for line in result.output.split(separator: "\n") {
                    #expect(throws: Never.self, "\(method.name)") { _ = try ProtoJSON.parse(String(line)) }
                }
            } else {
                #expect(result.errors.hasPrefix("healthctl: "), "\(method.name): \(result.errors)")
                #expect(result.output.isEmpty, "\(method.name)")
            }
        }
        #expect(try await SetGrantTests.healthctl(daemon, ["call", "AdminListApps"]).output.contains("com.example.caller"))
    }

    @Test func describeListsEveryMethodAndShowsShapes() async throws {
        let daemon = try await DaemonProcess()
        let all = try await SetGrantTests.healthctl(daemon, ["describe"])
        #expect(all.status == 0)
        for method in ProtoMethod.allCases {
            #expect(all.output.contains(" \(method.name) "), "\(method.name)")
        }
        let one = try await SetGrantTests.healthctl(daemon, ["describe", "pingstream"])
        #expect(one.output.contains("rpc DiagnosticsService.PingStream(PingStreamRequest) returns (stream PingResponse)"))
        #expect(one.output.contains("uint32 count = 1;"))
        let message = try await SetGrantTests.healthctl(daemon, ["describe", "Call"])
        #expect(message.output.contains("int64 timeout_us = 2;  // json: timeoutUs; 0: no deadline"))
        let unknown = try await SetGrantTests.healthctl(daemon, ["describe", "Nothing"])
        #expect(unknown.status == 64)
    }
}
