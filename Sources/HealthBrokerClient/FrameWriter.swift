#if canImport(Glibc)
import Glibc
#endif
import Foundation

import BrokerWire

/// Encodes client frames into one reused buffer and writes them to the socket, one writer at a time.
///
/// Confinement: `buffer` is touched only while `lock` is held, and a frame's bytes are written whole
/// before the lock is released, so frames from concurrent callers never interleave. That is what
/// makes the `@unchecked Sendable` sound. The socket descriptor stays valid for this object's
/// lifetime (the owning `ConnectionCore` closes it in `deinit`).
final class FrameWriter: @unchecked Sendable {
    /// Above this capacity the buffer is released after a write instead of kept for reuse.
    static let retainedCapacityLimit = 256 * 1024

    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private let fd: Int32

    /// Writes to socket `fd` (not owned).
    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(512)
    }

    /// Encodes `frame` (header included) and writes it; returns the errno on failure.
    ///
    /// `nonBlocking` (the loop's thread) never blocks: while another thread holds the writer,
    /// `whileLocked` runs between tries to take it, and while the socket is full, `whileFull` runs
    /// until it may take more. Both read the broker's frames meanwhile: a thread that writes while
    /// the broker waits for its replies to be read would otherwise wait on the loop for good.
    func write(_ frame: ClientFrame, nonBlocking: Bool = false, whileLocked: () -> Void = {}, whileFull: () -> Void = {}) -> Int32? {
        acquire(nonBlocking: nonBlocking, whileLocked: whileLocked)
        defer { lock.unlock() }
        buffer.removeAll(keepingCapacity: true)
        WireCodec.append(frame, to: &buffer)
        let failure = buffer.withUnsafeBytes { UnixSocket.sendAll(fd, $0, nonBlocking: nonBlocking, whileFull: whileFull) }
        if buffer.capacity > Self.retainedCapacityLimit { buffer = [] }
        return failure
    }

    /// Writes `bytes` as they are; returns the errno on failure. `nonBlocking`, `whileLocked` and
    /// `whileFull` as for `write`.
    func writeRaw(_ bytes: [UInt8], nonBlocking: Bool = false, whileLocked: () -> Void = {}, whileFull: () -> Void = {}) -> Int32? {
        acquire(nonBlocking: nonBlocking, whileLocked: whileLocked)
        defer { lock.unlock() }
        return bytes.withUnsafeBytes { UnixSocket.sendAll(fd, $0, nonBlocking: nonBlocking, whileFull: whileFull) }
    }

    /// Takes the lock: blocking, or (`nonBlocking`) trying again after each `whileLocked`.
    private func acquire(nonBlocking: Bool, whileLocked: () -> Void) {
        guard nonBlocking else { return lock.lock() }
        while !lock.try() { whileLocked() }
    }
}
