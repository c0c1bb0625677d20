#if canImport(Glibc)
import Glibc
#endif
import BrokerModel
import BrokerWire
import Foundation
@testable import HealthBrokerClient

/// The broker's end of a `socketpair` whose client end a `BrokerConnection` adopted: it reads only
/// when the test says so, so the client's socket fills up and stays full.
final class SocketPairPeer: @unchecked Sendable {
    /// The connection on the other end.
    let connection: BrokerConnection
    private let fd: Int32
    private let lock = NSLock()
    private var decoder = FrameDecoder(maxFrameBytes: 64 << 20)
    private var closed = false

    /// Makes the pair; the client end (non-reading peer: this one) gets small buffers, so a few
    /// hundred KiB fill it.
    init() throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw BrokerError(code: .unavailable, message: "socketpair failed: \(errno)")
        }
        fd = fds[1]
        connection = try BrokerConnection.adopting(socketDescriptor: fds[0], label: "socketpair")
    }

    deinit {
        connection.close()
        lock.lock()
        if !closed { _ = Glibc.close(fd) }
        closed = true
        lock.unlock()
    }

    /// Reads and decodes frames until `count` more have arrived or `timeout` passes; returns them
    /// (fewer on timeout or EOF). A frame that does not decode is a test failure (`nil`).
    ///
    /// The wait runs on a thread of its own: blocking a cooperative thread here would take it from
    /// the very client tasks that produce the frames, and starve the parallel suite on two cores.
    func frames(_ count: Int, timeout: Duration = .seconds(20)) async -> [ClientFrame]? {
        await withCheckedContinuation { (continuation: CheckedContinuation<[ClientFrame]?, Never>) in
            let reader = Thread { continuation.resume(returning: self.blockingFrames(count, timeout: timeout)) }
            reader.name = "socket pair peer reader"
            reader.start()
        }
    }

    /// `frames`, blocking the calling thread (for a thread of its own).
    func blockingFrames(_ count: Int, timeout: Duration) -> [ClientFrame]? {
        lock.lock()
        defer { lock.unlock() }
        var frames: [ClientFrame] = []
        var scratch = [UInt8](repeating: 0, count: 256 << 10)
        let deadline = ContinuousClock.now + timeout
        while frames.count < count {
            do {
                while frames.count < count, let payload = try decoder.nextFrame() {
                    frames.append(try WireCodec.decodeClientFrame(payload))
                }
            } catch {
                return nil
            }
            guard frames.count < count, ContinuousClock.now < deadline else { break }
            var one = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&one, 1, 50) > 0 else { continue }
            let read = scratch.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if read <= 0 { break }
            scratch.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<read])) }
        }
        return frames
    }

    /// Writes `frame` to the client (blocking: the client's loop always reads).
    func send(_ frame: ServerFrame) {
        var bytes: [UInt8] = []
        WireCodec.append(frame, to: &bytes)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 { if errno == EINTR { continue } else { return } }
                offset += sent
            }
        }
    }

    /// Hangs up: shuts the broker's end down both ways (the client reads EOF).
    func hangUp() {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Answers every Call among `frames` that is a ping by echoing its payload.
    func echoPings(in frames: [ClientFrame]) {
        for case .call(let call) in frames {
            if case .ping(let ping) = call.request {
                send(ServerFrame(callID: call.callID, response: .ping(PingResponse(payload: ping.payload))))
            }
        }
    }
}

/// Runs `body` on a thread of its own and waits up to `seconds` for it; false if it had not
/// returned by then (it may have blocked: the test then unblocks it and fails).
func returnsPromptly(within seconds: Double = 5, _ body: @escaping @Sendable () -> Void) async -> Bool {
    let done = Shared(false)
    let thread = Thread {
        body()
        done.withLock { $0 = true }
    }
    thread.start()
    return await waitUntil(timeout: .milliseconds(Int(seconds * 1_000))) { done.current }
}

extension ClientFrame {
    /// The call this frame belongs to.
    var callID: UInt64 {
        switch self {
        case .call(let call): call.callID
        case .cancel(let id), .credit(let id, _): id
        }
    }
}
