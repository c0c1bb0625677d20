import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport

/// A raw app-socket connection that shows every reply frame as the broker sent it.
///
/// The twins suite compares replies byte for byte, so it speaks the wire protocol itself instead of
/// going through `HealthStore` (which folds frames into Swift values and would hide differences).
/// Reads are non-blocking with short sleeps, so no cooperative thread is ever parked in `recv`.
final class TwinSocket: @unchecked Sendable {
    private let fd: Int32
    private var decoder = FrameDecoder(maxFrameBytes: 64 * 1024 * 1024)
    /// Frames that arrived for calls other than the one being waited for (e.g. an Observe stream).
    private var stashed: [UInt64: [ServerFrame]] = [:]

    /// Connects to the app socket at `path`.
    init(path: String) throws {
        guard let fd = RawUnixSocket.connect(path) else { throw DaemonError("cannot connect to \(path)") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends one client frame.
    func send(_ frame: ClientFrame) throws {
        var bytes: [UInt8] = []
        WireCodec.append(frame, to: &bytes)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent > 0 { offset += sent; continue }
            if sent < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            throw DaemonError("send failed: errno \(errno)")
        }
    }

    /// The next frame from the broker, or nil when none arrives within `timeout` seconds of this
    /// task's scheduled time (`ScheduledDeadline`).
    func nextFrame(timeout: Double) async throws -> ServerFrame? {
        var deadline = ScheduledDeadline(seconds: timeout)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let payload = try decoder.nextFrame() { return try WireCodec.decodeServerFrame(payload) }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                decoder.append(contentsOf: Array(chunk[0..<count]))
                continue
            }
            if count == 0 { throw DaemonError("the broker closed the connection") }
            if errno != EAGAIN && errno != EINTR { throw DaemonError("recv failed: errno \(errno)") }
            if deadline.hasPassed() { return nil }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Sends a call and returns every frame of it up to the one that ends it, within `timeout` seconds
    /// of this task's scheduled time (`ScheduledDeadline`).
    ///
    /// After each stream item `grant` more items are granted, so a stream longer than its window
    /// keeps flowing (and small windows exercise credit).
    func call(_ callID: UInt64, _ request: Proto.Call.Request, credit: UInt32 = 0, grant: UInt32 = 1, timeout: Double = 30) async throws -> [ServerFrame] {
        try send(.call(Call(callID: callID, initialCredit: credit, request: request)))
        var frames: [ServerFrame] = []
        // A pass may wait 0.2 s in `nextFrame`: it counts up to 0.3 s, so a call that never ends still
        // fails after about `timeout`.
        var deadline = ScheduledDeadline(.milliseconds(Int64(timeout * 1_000)), longestPass: .milliseconds(300))
        while !deadline.hasPassed() {
            guard let frame = try await nextFrame(timeout: 0.2) else { continue }
            guard frame.callID == callID else {
                stashed[frame.callID, default: []].append(frame)
                continue
            }
            frames.append(frame)
            if frame.endsCall { return frames }
            if grant > 0 { try send(.credit(callID: callID, items: grant)) }
        }
        throw DaemonError("call \(callID) (\(request.method.name)) did not end within \(timeout) s; frames so far: \(frames)")
    }

    /// Starts a call without waiting (a stream read later with `take`).
    func start(_ callID: UInt64, _ request: Proto.Call.Request, credit: UInt32 = 0) throws {
        try send(.call(Call(callID: callID, initialCredit: credit, request: request)))
    }

    /// The frames received for `callID` once at least `atLeast` have arrived (within `timeout`
    /// seconds) and `settle` more seconds have passed, so late extra frames are seen too. Both count
    /// this task's scheduled time (`ScheduledDeadline`).
    func take(_ callID: UInt64, atLeast: Int = 0, settle: Double, timeout: Double = 10) async throws -> [ServerFrame] {
        var giveUp = ScheduledDeadline(seconds: timeout)
        while (stashed[callID]?.count ?? 0) < atLeast && !giveUp.hasPassed() {
            if let frame = try await nextFrame(timeout: 0.01) { stashed[frame.callID, default: []].append(frame) }
        }
        var deadline = ScheduledDeadline(seconds: settle)
        while !deadline.hasPassed() {
            if let frame = try await nextFrame(timeout: 0.01) { stashed[frame.callID, default: []].append(frame) }
        }
        return stashed.removeValue(forKey: callID) ?? []
    }
}
