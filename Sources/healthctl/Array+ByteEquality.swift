#if canImport(Glibc)
import Glibc
#endif

extension [UInt8] {
    /// Whether the array holds exactly `bytes` (one memcmp; `elementsEqual` goes byte by byte).
    @inline(__always)
    func equals(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == bytes.count else { return false }
        guard count > 0 else { return true }
        return withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, count) == 0 }
    }
}
