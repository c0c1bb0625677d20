#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies strings, NUL-terminated, one after another into a scratch buffer the caller owns.
///
/// Used where a message holds more strings than is practical to nest `withCString` scopes for (a
/// list of apps): the caller sizes one scoped buffer with `byteCount(of:)` and writes each string.
/// A string with an embedded NUL reads as cut at that NUL on the C side (as with `withCString`).
struct CStringWriter {
    private var cursor: UnsafeMutablePointer<CChar>
    private let end: UnsafeMutablePointer<CChar>

    /// A writer filling `buffer` from its start.
    init(_ buffer: UnsafeMutableBufferPointer<CChar>) {
        cursor = buffer.baseAddress.unsafelyUnwrapped
        end = cursor + buffer.count
    }

    /// The bytes `string` takes in the buffer, terminator included.
    static func byteCount(of string: String) -> Int {
        string.utf8.count + 1
    }

    /// Writes `string` and its terminator; returns where it starts.
    mutating func write(_ string: String) -> UnsafeMutablePointer<CChar> {
        let start = cursor
        var string = string
        string.withUTF8 { utf8 in
            precondition(utf8.count < end - cursor, "CStringWriter buffer too small")
            if let source = utf8.baseAddress, utf8.count > 0 {
                memcpy(cursor, source, utf8.count)
            }
            cursor += utf8.count
        }
        cursor.pointee = 0
        cursor += 1
        return start
    }
}
