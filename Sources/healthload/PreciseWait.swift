#if canImport(Glibc)
import Glibc
#endif

/// `ppoll(2)`, for waits shorter than `poll`'s milliseconds (Glibc declares it only under
/// _GNU_SOURCE, so it is looked up once with `dlsym`); falls back to `poll` when missing.
enum PreciseWait {
    private typealias PPoll = @convention(c) (UnsafeMutablePointer<pollfd>?, nfds_t, UnsafePointer<timespec>?, UnsafeRawPointer?) -> Int32

    private static let ppoll: PPoll? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "ppoll") else { return nil }
        return unsafeBitCast(symbol, to: PPoll.self)
    }()

    /// Waits for events on `fds` for at most `nanoseconds` (nil: no limit); returns poll's result.
    static func poll(_ fds: inout [pollfd], nanoseconds: UInt64?) -> Int32 {
        fds.withUnsafeMutableBufferPointer { buffer in
            if let ppoll {
                guard let nanoseconds else { return ppoll(buffer.baseAddress, nfds_t(buffer.count), nil, nil) }
                var spec = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
                return ppoll(buffer.baseAddress, nfds_t(buffer.count), &spec, nil)
            }
            let millis = nanoseconds.map { Int32(clamping: ($0 + 999_999) / 1_000_000) } ?? -1
            return Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), millis)
        }
    }
}
