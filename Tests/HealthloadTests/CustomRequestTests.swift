import BrokerWire
import Foundation
@testable import healthload
import TestSupport
import Testing

/// `--op custom --request METHOD=JSON`: any unary app method, its request read from JSON.
@Suite struct CustomRequestTests {
    @Test func aUnaryAppMethodAndItsJSONRequestAreRead() throws {
        let custom = try CustomRequest(parsing: #"earliestauthorizedsampledate={"types":["HKQuantityTypeIdentifierStepCount"]}"#)
        #expect(custom.method == .earliestAuthorizedSampleDate)
        guard case .earliestAuthorizedSampleDate(let request) = custom.request else {
            Issue.record("wrong request case: \(custom.request)")
            return
        }
        #expect(request.types == ["HKQuantityTypeIdentifierStepCount"])
    }

    @Test func aRequestFileIsRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("healthload-request-\(UUID()).json").path
        try #"{"type":"HKQuantityTypeIdentifierHeartRate"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let custom = try CustomRequest(parsing: "AuthorizationStatus=@\(path)")
        var expected = Proto.AuthorizationStatusRequest()
        expected.type = "HKQuantityTypeIdentifierHeartRate"
        #expect(custom.request == .authorizationStatus(expected))
    }

    @Test(arguments: [
        ("AdminListApps={}", "not a unary app method"),
        ("Query={}", "not a unary app method"),
        ("Hello={}", "not a unary app method"),
        ("NoSuchMethod={}", "no method NoSuchMethod"),
        ("Ping", "expected METHOD=JSON"),
        (#"Ping={"delayMicros":"x"}"#, "Ping:"),
    ])
    func whatCannotBeSentIsRefusedWithAReason(text: String, reason: String) {
        do {
            _ = try CustomRequest(parsing: text)
            Issue.record("\(text) was taken")
        } catch {
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    @Test func aCustomMixRunsAgainstARealBroker() async throws {
        let daemon = try await DaemonProcess()
        var options = LoadOptions(socketPath: daemon.appSocket, adminSocketPath: daemon.adminSocket)
        options.durationSeconds = 0.3
        options.warmupSeconds = 0.1
        options.depth = 4
        options.quiet = true
        options.verify = true
        options.mix = try OperationMix(parsing: "custom:1,ping:1")
        options.customRequest = try CustomRequest(parsing: #"RequestStatus={"shareTypes":["HKQuantityTypeIdentifierStepCount"]}"#)
        let report = try await LoadRunner(options: options).run()
        #expect(report.errors.isEmpty, "errors: \(report.errors)")
        let custom = try #require(report.operations.first { $0.operation == "custom" })
        #expect(custom.succeeded > 0)
    }
}
