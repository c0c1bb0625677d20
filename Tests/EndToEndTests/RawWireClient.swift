import BrokerWire
import Foundation
import TestSupport

/// A hand-driven connection for tests that need exact frames: it writes whatever bytes it is given
/// and reads whole ServerFrames, with nothing of the client library's session logic in between.
final class RawWireClient {
    private let fd: Int32
    private var decoder = FrameDecoder(maxFrameBytes: 64 << 20)

    /// Connects to the Unix socket at `path`.
    init(path: String) throws {
        guard let fd = RawUnixSocket.connect(path) else { throw DaemonError("cannot connect to \(path)") }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Writes `frame`, encoded by the codec.
    func send(_ frame: ClientFrame) throws {
        var bytes: [UInt8] = []
        WireCodec.append(frame, to: &bytes)
        try sendRaw(bytes)
    }

    /// Writes a call.
    func call(_ callID: UInt64, _ request: Proto.Call.Request, credit: UInt32 = 0) throws {
        try send(.call(Call(callID: callID, initialCredit: credit, request: request)))
    }

    /// Writes a frame holding exactly `message` (a ClientFrame's bytes, however made).
    func sendMessage(_ message: [UInt8]) throws {
        var bytes: [UInt8] = []
        FrameHeader.append(length: message.count, to: &bytes)
        try sendRaw(bytes + message)
    }

    /// Writes `bytes` as they are.
    func sendRaw(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw DaemonError("send failed: errno \(errno)")
            }
            offset += sent
        }
    }

    /// The next frame from the broker; nil when it closed the connection. Throws when nothing whole
    /// arrives within `timeout` seconds.
    func next(timeout: TimeInterval = 5) throws -> ServerFrame? {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let payload = try decoder.nextFrame() { return try WireCodec.decodeServerFrame(payload) }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw DaemonError("no whole frame within \(timeout) s") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1_000) + 1)
            if ready < 0 && errno != EINTR { throw DaemonError("poll failed: errno \(errno)") }
            guard ready > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return nil }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == ECONNRESET { return nil }
                throw DaemonError("recv failed: errno \(errno)")
            }
            decoder.append(contentsOf: Array(buffer[0..<count]))
        }
    }

    /// Frames until the one that ends a call (or a call-id-0 frame, or the end), keyed by call id:
    /// reads until every call in `callIDs` has ended or `timeout` passes; returns what ended.
    func endings(of callIDs: Set<UInt64>, timeout: TimeInterval = 5) throws -> [UInt64: ServerFrame] {
        let deadline = Date().addingTimeInterval(timeout)
        var ended: [UInt64: ServerFrame] = [:]
        while !callIDs.isSubset(of: Set(ended.keys)) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { break }
            let frame: ServerFrame?
            do {
                frame = try next(timeout: left)
            } catch {
                break
            }
            guard let frame else { break }
            if frame.callID == 0 {
                ended[0] = frame
                break
            }
            if frame.endsCall { ended[frame.callID] = frame }
        }
        return ended
    }

    /// Says Hello as `appID` and checks the broker accepted it.
    func hello(appID: String, token: String, callID: UInt64 = 1) throws {
        try call(callID, .hello(HelloRequest(appID: appID, appToken: token, protocolVersion: 1)))
        guard let reply = try next(), reply.callID == callID, reply.status == nil else {
            throw DaemonError("hello as \(appID) was refused")
        }
    }
}
