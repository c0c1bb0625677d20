import BrokerWire
import Foundation
import TestSupport

/// A raw app connection for hostile-client tests: says Hello, then writes frames without reading
/// until it chooses to, and can then read everything the broker sent, checking the frames are whole.
final class DeafClient {
    let fd: Int32

    /// Connects to `socket`; with `token`, writes a Hello for `appID` first. The socket is non-blocking.
    init(socket: String, appID: String? = nil, token: String? = nil) throws {
        guard let fd = RawUnixSocket.connect(socket) else { throw DaemonError("cannot connect to \(socket)") }
        self.fd = fd
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        if let appID, let token {
            var hello: [UInt8] = []
            WireCodec.append(ClientFrame.call(Call(callID: 1, request: .hello(HelloRequest(appID: appID, appToken: token, protocolVersion: 1)))), to: &hello)
            guard sendNow(hello) else { throw DaemonError("the broker did not take the Hello") }
        }
    }

    deinit { close(fd) }

    /// Appends one client frame to `bytes`.
    static func frame(_ frame: ClientFrame, to bytes: inout [UInt8]) {
        WireCodec.append(frame, to: &bytes)
    }

    /// Writes `bytes` until all are written (waiting with `Task.sleep`, so a full socket holds no
    /// cooperative thread: the parallel suite has two) or the socket stayed full for `giveUpAfter`
    /// seconds (the broker stopped reading); returns how many were written.
    func pour(_ bytes: [UInt8], giveUpAfter seconds: Double = 0.3) async throws -> Int {
        var offset = 0
        var blockedSince: ContinuousClock.Instant?
        while offset < bytes.count {
            switch sendSome(bytes, from: offset) {
            case .sent(let count):
                offset += count
                blockedSince = nil
            case .failed:
                return offset
            case .full:
                let since = blockedSince ?? .now
                blockedSince = since
                if ContinuousClock.now - since > .seconds(seconds) { return offset }
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        return offset
    }

    /// Writes `bytes` without waiting, for a small frame on a socket with room (a Hello, one ping);
    /// false when the socket did not take them all at once.
    func sendNow(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count, case .sent(let count) = sendSome(bytes, from: offset) { offset += count }
        return offset == bytes.count
    }

    /// What one `send` of the bytes from `offset` did.
    private enum SendStep {
        case sent(Int)
        /// The socket's buffer is full (EAGAIN).
        case full
        /// The connection failed (closed by the broker, say).
        case failed
    }

    private func sendSome(_ bytes: [UInt8], from offset: Int) -> SendStep {
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
        if sent > 0 { return .sent(sent) }
        return sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? .full : .failed
    }

    /// What the broker sent, read until it closed the connection or `seconds` passed.
    struct Transcript {
        var frames: [ServerFrame] = []
        /// Bytes after the last whole frame (a truncated frame when not zero).
        var leftover = 0
        /// True when the broker closed the connection.
        var closed = false
        /// How long the read took, from its start to the close or the give-up.
        var readTime = Duration.zero
    }

    /// Reads until the broker closes the connection (or `seconds` of this task's scheduled time pass,
    /// `ScheduledDeadline`), decoding every frame.
    func readToEnd(seconds: Double = 10, maxFrameBytes: Int = 8 << 20) async throws -> Transcript {
        var transcript = Transcript()
        var decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var deadline = ScheduledDeadline(seconds: seconds)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                transcript.closed = true
                break
            }
            if count > 0 {
                buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                while let frame = try decoder.nextFrame() { transcript.frames.append(try WireCodec.decodeServerFrame(frame)) }
            }
            if deadline.hasPassed() { break }
            if count < 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        transcript.leftover = decoder.bufferedByteCount
        return transcript
    }

    /// On a thread of its own: waits until `ready` holds (polled every 10 ms, for up to `readyWithin`
    /// seconds), then reads until the broker closes the connection (or `seconds` pass). Returns the
    /// transcript and whether `ready` held.
    ///
    /// For a read that must begin soon after an event in the broker (within a grace period the
    /// broker gives a stalled peer, say): a task of the cooperative pool can sit behind the parallel
    /// suite's CPU-bound tests for longer than that, a thread of its own cannot.
    func readToEndOnOwnThread(
        when ready: @escaping @Sendable () -> Bool, readyWithin: Double = 60, seconds: Double = 10, maxFrameBytes: Int = 8 << 20
    ) async throws -> (transcript: Transcript, wasReady: Bool) {
        let fd = fd
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                var wasReady = ready()
                let readyBy = Date().addingTimeInterval(readyWithin)
                while !wasReady, Date() < readyBy {
                    usleep(10_000)
                    wasReady = ready()
                }
                var transcript = Transcript()
                var decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let giveUp = Date().addingTimeInterval(seconds)
                let started = ContinuousClock.now
                do {
                    while Date() < giveUp {
                        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                        _ = poll(&descriptor, 1, 10)
                        let count = recv(fd, &buffer, buffer.count, 0)
                        if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                            transcript.closed = true
                            break
                        }
                        guard count > 0 else { continue }
                        buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                        while let frame = try decoder.nextFrame() { transcript.frames.append(try WireCodec.decodeServerFrame(frame)) }
                    }
                    transcript.leftover = decoder.bufferedByteCount
                    transcript.readTime = ContinuousClock.now - started
                    continuation.resume(returning: (transcript, wasReady))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.name = "deaf client reader"
            thread.start()
        }
    }

    /// Reads what is there now (waiting up to `seconds` for more), decoding whole frames.
    func readAvailable(seconds: Double, decoder: inout FrameDecoder) async throws -> [ServerFrame] {
        try await read(decoder: &decoder, seconds: seconds) { _ in false }
    }

    /// Reads until `enough` holds for the frames read (then `settle` seconds more, so that frames
    /// beyond it show) or `seconds` pass: a count waited for this way does not depend on how busy
    /// the machine is, and one too many is still seen. Both count this task's scheduled time
    /// (`ScheduledDeadline`), so a settle is not over before the task has looked again.
    func read(
        decoder: inout FrameDecoder, seconds: Double = 20, settle: Double = 0.2, until enough: ([ServerFrame]) -> Bool
    ) async throws -> [ServerFrame] {
        var frames: [ServerFrame] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var deadline = ScheduledDeadline(seconds: seconds)
        var settleDeadline: ScheduledDeadline?
        while true {
            if settleDeadline == nil, enough(frames) { settleDeadline = ScheduledDeadline(seconds: settle) }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 {
                buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                while let frame = try decoder.nextFrame() { frames.append(try WireCodec.decodeServerFrame(frame)) }
            }
            let settled = settleDeadline?.hasPassed() ?? false
            if deadline.hasPassed() || settled { break }
            if count <= 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        return frames
    }
}

extension DeafClient {
    /// Round-trip times of `count` pings, 40 ms apart, on a new connection, measured on a dedicated
    /// thread (blocking reads there starve no test of the cooperative pool, and the pool's backlog
    /// in a parallel run is not part of the figure).
    static func pingLatencies(socket: String, appID: String, token: String, count: Int) async throws -> [Duration] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Duration], any Error>) in
            let thread = Thread {
                do {
                    let client = try DeafClient(socket: socket, appID: appID, token: token)
                    var decoder = FrameDecoder(maxFrameBytes: 1 << 20)
                    _ = try client.awaitFrame(callID: 1, decoder: &decoder, seconds: 10)
                    var latencies: [Duration] = []
                    for index in 0..<count {
                        let id = UInt64(2 + index)
                        var bytes: [UInt8] = []
                        DeafClient.frame(.call(Call(callID: id, request: .ping(PingRequest(payload: [7])))), to: &bytes)
                        let started = ContinuousClock.now
                        guard client.sendNow(bytes) else { throw DaemonError("the ping was not taken") }
                        guard try client.awaitFrame(callID: id, decoder: &decoder, seconds: 10) else { throw DaemonError("no reply to ping \(id)") }
                        latencies.append(ContinuousClock.now - started)
                        usleep(40_000)
                    }
                    continuation.resume(returning: latencies)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }

    /// Waits (polling the socket) until a frame ending call `callID` arrives; false after `seconds`.
    func awaitFrame(callID: UInt64, decoder: inout FrameDecoder, seconds: Double) throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            while let frame = try decoder.nextFrame() {
                if try WireCodec.decodeServerFrame(frame).callID == callID { return true }
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 10)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return false }
            if count > 0 { buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) } }
        }
        return false
    }
}

/// The daemon's resident memory in bytes (`VmRSS`), or 0 when it cannot be read.
func residentBytes(_ daemon: DaemonProcess) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
    return 0
}
