/// Appending encoded messages to an output buffer.
public enum ProtoEncoding {
    /// Grows `buffer` by a frame header and `size` bytes, writes the header, and lets `write` fill
    /// the message bytes (exactly `size` of them) from a writer at their start.
    @inline(__always)
    public static func appendFrame(size: Int, to buffer: inout [UInt8], _ write: (inout ProtoWriter) -> Void) {
        append(size: size, header: true, to: &buffer, write)
    }

    /// As `appendFrame`, with or without the header.
    @inline(__always)
    public static func append(size: Int, header: Bool, to buffer: inout [UInt8], _ write: (inout ProtoWriter) -> Void) {
        let headerSize = header ? FrameDecoder.headerSize : 0
        let start = buffer.count
        grow(&buffer, by: headerSize + size)
        buffer.withUnsafeMutableBufferPointer { out in
            let frame = out.baseAddress.unsafelyUnwrapped + start
            if header { FrameHeader.write(length: size, to: frame) }
            var writer = ProtoWriter(frame + headerSize)
            write(&writer)
            precondition(writer.cursor == frame + headerSize + size, "wrote a different size than measured")
        }
    }

    /// Zeroes, to append from memory: appending a buffer is a copy, where appending `repeatElement`
    /// goes element by element (measured at about 270 instructions for a 20-byte reply).
    private static let zeroes = [UInt8](repeating: 0, count: 4_096)

    /// Appends `count` zero bytes to `buffer`, growing it geometrically (reserveCapacity alone would
    /// not, so appending many frames stays linear).
    @inline(__always)
    static func grow(_ buffer: inout [UInt8], by count: Int) {
        var left = count
        zeroes.withUnsafeBufferPointer { zeroes in
            while left > 0 {
                let chunk = min(left, zeroes.count)
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: zeroes[0..<chunk]))
                left -= chunk
            }
        }
    }
}
