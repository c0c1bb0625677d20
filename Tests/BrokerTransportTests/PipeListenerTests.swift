import BrokerModel
import BrokerTransport
import BrokerWire
import Foundation
import Synchronization
import Testing
import TestSupport

/// A listener and its connections, served on an in-process loop, leave nothing open behind them.
@Suite struct PipeListenerTests {
    /// Sends every frame back and reports the close.
    final class EchoDelegate: PipeConnectionDelegate {
        var connections: [PipeConnection] = []
        var onClose: () -> Void = {}

        func connection(_ connection: PipeConnection, didReceiveFrame payload: Span<UInt8>) {
            var bytes: [UInt8] = []
            for index in payload.indices { bytes.append(payload[index]) }
            connection.send { output in
                FrameHeader.append(length: bytes.count, to: &output)
                output.append(contentsOf: bytes)
            }
        }

        func connectionDidClose(_ connection: PipeConnection, error: BrokerError?) {
            onClose()
        }
    }

    /// What the client thread read, for the test thread once the loop has stopped.
    final class Received: Sendable {
        private let stored = Mutex<[UInt8]>([])
        var bytes: [UInt8] { stored.withLock { $0 } }
        func set(_ bytes: [UInt8]) { stored.withLock { $0 = bytes } }
    }

    @Test func echoesAFrameThenClosesTheLoopCleanly() throws {
        let path = "/tmp/hb-transport-\(UInt32.random(in: 0...UInt32.max)).sock"
        let loop = try EventLoop()
        let echo = EchoDelegate()
        let listener = try PipeListener(
            loop: loop, path: path, mode: 0o600, maxFrameBytes: 1_024, outputLimits: OutputLimits(highWater: 64 * 1_024)
        ) { connection in
            connection.delegate = echo
            echo.connections.append(connection)
        }
        var timedOut = false
        echo.onClose = {
            listener.close()
            loop.close()
        }
        // A hung client must not hang the test: close everything after 10 s.
        loop.schedule(afterMicros: 10_000_000) {
            timedOut = true
            for connection in echo.connections { connection.close() }
            listener.close()
            loop.close()
        }

        let frame: [UInt8] = [0, 0, 0, 0, 3, 7, 8, 9]
        let received = Received()
        Thread {
            guard let fd = RawUnixSocket.connect(path) else { return }
            defer { close(fd) }
            _ = frame.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            var reply = [UInt8](repeating: 0, count: frame.count)
            var got = 0
            while got < reply.count {
                let count = reply.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
                if count <= 0 { break }
                got += count
            }
            received.set(Array(reply[0..<got]))
        }.start()
        loop.run()

        #expect(!timedOut)
        #expect(received.bytes == frame)
        #expect(echo.connections.allSatisfy { $0.isClosed })
        // Every handle (listener, connection, the loop's own) was closed and freed.
        #expect(loop.closedCleanly)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A Unix socket bound at `path` and, unless `type` is datagram, listening: what systemd passes.
    func boundSocket(_ path: String, type: Int32 = Int32(SOCK_STREAM.rawValue)) throws -> Int32 {
        let fd = socket(AF_UNIX, type, 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        if type == Int32(SOCK_STREAM.rawValue) { try #require(listen(fd, 16) == 0) }
        return fd
    }

    @Test func anAdoptedSocketIsServedAndItsFileLeftOnClose() throws {
        let path = "/tmp/hb-transport-adopted-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(path) }
        let fd = try boundSocket(path)
        let loop = try EventLoop()
        let echo = EchoDelegate()
        let listener = try PipeListener(
            loop: loop, adopting: fd, maxFrameBytes: 1_024, outputLimits: OutputLimits(highWater: 64 * 1_024)
        ) { connection in
            connection.delegate = echo
            echo.connections.append(connection)
        }
        #expect(listener.path == path)
        echo.onClose = {
            listener.close()
            loop.close()
        }
        loop.schedule(afterMicros: 10_000_000) {
            for connection in echo.connections { connection.close() }
            listener.close()
            loop.close()
        }
        let frame: [UInt8] = [0, 0, 0, 0, 1, 5]
        let received = Received()
        Thread {
            guard let client = RawUnixSocket.connect(path) else { return }
            defer { close(client) }
            _ = frame.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            var reply = [UInt8](repeating: 0, count: frame.count)
            var got = 0
            while got < reply.count {
                let count = reply.withUnsafeMutableBytes { read(client, $0.baseAddress! + got, $0.count - got) }
                if count <= 0 { break }
                got += count
            }
            received.set(Array(reply[0..<got]))
        }.start()
        loop.run()

        #expect(received.bytes == frame)
        #expect(loop.closedCleanly)
        // Whoever bound the socket owns its file: the listener leaves it.
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func aDatagramSocketIsNotAdopted() throws {
        let path = "/tmp/hb-transport-dgram-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(path) }
        let fd = try boundSocket(path, type: Int32(SOCK_DGRAM.rawValue))
        defer { close(fd) }
        let loop = try EventLoop()
        let error = #expect(throws: BrokerError.self) {
            _ = try PipeListener(loop: loop, adopting: fd, maxFrameBytes: 1_024, outputLimits: OutputLimits(highWater: 64 * 1_024)) { _ in }
        }
        #expect(error?.code == .failedPrecondition)
        loop.close()
        loop.run()
        #expect(loop.closedCleanly)
    }
}
