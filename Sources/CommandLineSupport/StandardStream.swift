#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error, written with `write(2)` (no shared `FILE *` globals).
///
/// No stdio buffer or lock is involved, so a write never waits for another thread: `fflush(nil)`
/// would take every stream's lock, stdin's too, which a thread blocked in `readLine` holds.
public enum StandardStream: Int32, Sendable {
    /// File descriptor 1.
    case output = 1
    /// File descriptor 2.
    case error = 2

    /// Writes all of `text`, retrying after interruptions; gives up silently if the stream is closed.
    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                Darwin.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset)
                #elseif canImport(Musl)
                Musl.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
