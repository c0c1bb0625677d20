/// The 5-byte header in front of every message: a flags byte (always 0) and a big-endian UInt32 length.
public enum FrameHeader {
    /// Appends a header announcing a `length`-byte message: flags 0, then the length big-endian.
    ///
    /// `length` must fit in a UInt32.
    public static func append(length: Int, to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: FrameDecoder.headerSize))
        buffer.withUnsafeMutableBufferPointer { out in
            write(length: length, to: out.baseAddress.unsafelyUnwrapped + start)
        }
    }

    /// Writes a header announcing a `length`-byte message into the 5 bytes at `destination`.
    @inline(__always)
    static func write(length: Int, to destination: UnsafeMutablePointer<UInt8>) {
        precondition(length >= 0 && length <= Int(UInt32.max), "frame length \(length) does not fit in a UInt32")
        let value = UInt32(truncatingIfNeeded: length)
        destination[0] = 0
        destination[1] = UInt8(truncatingIfNeeded: value >> 24)
        destination[2] = UInt8(truncatingIfNeeded: value >> 16)
        destination[3] = UInt8(truncatingIfNeeded: value >> 8)
        destination[4] = UInt8(truncatingIfNeeded: value)
    }
}
