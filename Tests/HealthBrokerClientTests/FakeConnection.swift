#if canImport(Glibc)
import Glibc
#endif
import BrokerWire
import Foundation

/// One connection the fake broker accepted: its socket, written and closed under one lock.
///
/// Confinement: `closed` is touched only under `lock`, and the descriptor is written, shut down and
/// closed only under it, so a write never reaches a descriptor number already reused. Only the
/// connection's own thread reads, and it closes the descriptor after its last read.
final class FakeConnection: @unchecked Sendable {
    private let lock = NSLock()
    private let fd: Int32
    private var closed = false

    /// Wraps accepted socket `fd` (owned from now on).
    init(fd: Int32) {
        self.fd = fd
    }

    /// Reads and decodes client frames until EOF or a bad frame, handing each to `respond`; sends its
    /// replies, and stops after them when it says to hang up (or returns nil: the fake is gone).
    func readFrames(_ respond: (ClientFrame) -> (replies: [ServerFrame], hangUp: Bool)?) {
        var decoder = FrameDecoder(maxFrameBytes: 1 << 24)
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            scratch.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            do {
                while let payload = try decoder.nextFrame() {
                    guard let (replies, hangUp) = respond(try WireCodec.decodeClientFrame(payload)) else { return }
                    var bytes: [UInt8] = []
                    for reply in replies { WireCodec.append(reply, to: &bytes) }
                    if !bytes.isEmpty, !write(bytes) { return }
                    if hangUp { return }
                }
            } catch {
                return
            }
        }
    }

    /// Writes all of `bytes`; false when the connection is closed or the write failed.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return false }
        return bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return true
        }
    }

    /// Shuts the socket down: the client sees EOF and the reading thread ends.
    func shutDown() {
        lock.lock()
        defer { lock.unlock() }
        if !closed { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Closes the descriptor (the reading thread, once it has stopped reading).
    func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        _ = Glibc.close(fd)
    }
}
