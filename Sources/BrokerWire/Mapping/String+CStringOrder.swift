#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The order protobuf-c's side of the codec sorted keys in (strcmp of C strings), kept so that equal
// dictionaries still encode to the bytes they always did.
extension String {
    /// Whether `self` sorts before `other` as strcmp sorts their C strings: unsigned bytes, each cut
    /// at its first NUL (all that goes on the wire).
    @inline(__always)
    func precedesAsCString(_ other: String) -> Bool {
        let count = ProtoWriter.cStringCount(self)
        let otherCount = ProtoWriter.cStringCount(other)
        var left = self
        var right = other
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                let common = Swift.min(count, otherCount)
                let order = common == 0 ? 0 : memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, common)
                return order != 0 ? order < 0 : count < otherCount
            }
        }
    }
}
