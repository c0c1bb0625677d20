#if canImport(Glibc)
import Glibc
#endif

/// Writes lines to standard error at once (progress and setup notes), with `write(2)`.
enum Console {
    /// Writes `text` and a newline to standard error.
    static func note(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
