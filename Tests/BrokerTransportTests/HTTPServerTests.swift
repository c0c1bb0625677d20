import BrokerModel
import BrokerHTTPTransport
import BrokerTransport
import Foundation
import Synchronization
import Testing

/// The HTTP server on libh2o: answers now, later (from the loop, after other work) and streamed;
/// an answer to a peer that left frees the request (a later one is a no-op); closing it leaves no
/// handle open.
@Suite struct HTTPServerTests {
    /// What the client thread read per path, for the test thread once the loop has stopped.
    final class Replies: Sendable {
        private let stored = Mutex<[String: String]>([:])
        var all: [String: String] { stored.withLock { $0 } }
        func set(_ path: String, _ text: String) { stored.withLock { $0[path] = text } }
    }

    /// Sends one request on a fresh connection and reads until the server closes it.
    static func fetch(port: UInt16, path: String, leaveEarly: Bool = false) -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return "connect failed" }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if leaveEarly { return "" }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    @Test func answersNowLaterAndStreamedThenClosesCleanly() throws {
        let loop = try EventLoop()
        var leftEarly: HTTPRequest?
        var lateAnswerDropped = false
        let server = try HTTPServer(loop: loop, host: "127.0.0.1", port: 0) { request in
            switch request.path {
            case "/now":
                request.respond(status: 200, reason: "OK", headers: [("content-type", "text/plain")], body: Array("now \(request.query)".utf8))
            case "/later":
                loop.schedule(afterMicros: 20_000) {
                    request.respond(status: 201, reason: "Created", body: Array("later".utf8))
                }
            case "/stream":
                guard let stream = request.startStream(headers: [("content-type", "text/event-stream")]) else { return }
                stream.send(Array("data: one\n\n".utf8))
                loop.schedule(afterMicros: 10_000) { stream.send(Array("data: two\n\n".utf8)) }
                loop.schedule(afterMicros: 30_000) { stream.finish() }
            case "/gone":
                leftEarly = request
                // h2o stops reading while a request is handled, so it learns that the peer left
                // only when the answer is written: then the request is freed, and nothing breaks.
                loop.schedule(afterMicros: 200_000) {
                    request.respond(status: 200, reason: "OK", body: Array("too late".utf8))
                }
                loop.schedule(afterMicros: 400_000) {
                    lateAnswerDropped = request.isGone
                    request.respond(status: 200, reason: "OK", body: Array("again".utf8))
                }
            default:
                request.respond(status: 404, reason: "Not Found", body: [])
            }
        }
        #expect(server.port != 0)
        var timedOut = false
        loop.schedule(afterMicros: 10_000_000) {
            timedOut = true
            server.close()
            loop.close()
        }
        let replies = Replies()
        let port = server.port
        Thread {
            replies.set("/gone", Self.fetch(port: port, path: "/gone", leaveEarly: true))
            for path in ["/now?x=1", "/later", "/stream", "/missing"] {
                replies.set(path, Self.fetch(port: port, path: path))
            }
            Thread.sleep(forTimeInterval: 0.6)
            loop.execute {
                server.close()
                loop.close()
            }
        }.start()
        loop.run()

        #expect(!timedOut)
        let all = replies.all
        #expect(all["/now?x=1"]?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)
        #expect(all["/now?x=1"]?.hasSuffix("\r\n\r\nnow x=1") == true)
        #expect(all["/later"]?.hasPrefix("HTTP/1.1 201 Created\r\n") == true)
        #expect(all["/later"]?.hasSuffix("later") == true)
        let streamed = all["/stream"] ?? ""
        #expect(streamed.contains("content-type: text/event-stream"))
        #expect(streamed.contains("data: one\n\n") && streamed.contains("data: two\n\n"))
        #expect(all["/missing"]?.hasPrefix("HTTP/1.1 404") == true)
        #expect(leftEarly != nil)
        #expect(lateAnswerDropped)
        #expect(server.connectionCount == 0)
        // Every handle (listener, connections, h2o's timers and wake-up, the loop's own) was closed.
        #expect(loop.closedCleanly)
    }

    @Test func aTakenPortIsAClearError() throws {
        let loop = try EventLoop()
        let first = try HTTPServer(loop: loop, host: "127.0.0.1", port: 0) { $0.respond(status: 200, reason: "OK", body: []) }
        #expect(throws: BrokerError.self) {
            _ = try HTTPServer(loop: loop, host: "127.0.0.1", port: first.port) { $0.respond(status: 200, reason: "OK", body: []) }
        }
        #expect(throws: BrokerError.self) {
            _ = try HTTPServer(loop: loop, host: "not an address", port: 0) { _ in }
        }
        first.close()
        loop.close()
        loop.run()
        #expect(loop.closedCleanly)
    }
}
