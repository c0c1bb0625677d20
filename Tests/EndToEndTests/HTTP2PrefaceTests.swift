import Foundation
import HealthBrokerClient
import TestSupport
import Testing

/// A gRPC (HTTP/2) client that dials the app socket is told, in a line of text, what it reached.
@Suite("HTTP/2 preface")
struct HTTP2PrefaceTests {
    @Test func anHTTP2ClientGetsOneLineSayingThisIsNotGRPCAndTheBrokerLogsIt() async throws {
        let daemon = try await DaemonProcess()
        let client = try DeafClient(socket: daemon.appSocket)
        // The preface and an empty SETTINGS frame, as grpcio and curl --http2-prior-knowledge send them.
        let settings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]
        _ = try await client.pour(Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + settings, giveUpAfter: 2)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        // 5 s of this task's scheduled time, sleeping without holding a cooperative thread.
        var deadline = ScheduledDeadline(.seconds(5))
        var closed = false
        while true {
            let count = recv(client.fd, &buffer, buffer.count, 0)
            if count == 0 { closed = true; break }
            if count > 0 {
                received += buffer[0..<count]
            } else {
                if deadline.hasPassed() { break }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(closed)
        #expect(text.hasPrefix("healthbrokerd: this is HealthBroker's own framing, not gRPC over HTTP/2"))
        #expect(text.hasSuffix("\n") && text.filter { $0 == "\n" }.count == 1)
        #expect(await pollUntil(within: .seconds(5)) { daemon.log().contains("not gRPC over HTTP/2") })
        // The broker goes on serving ordinary clients.
        let store = try await daemon.connectApp("com.example.after")
        defer { store.close() }
        #expect(try await store.ping(payload: [7]).payload == [7])
    }
}
