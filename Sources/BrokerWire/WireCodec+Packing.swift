import HealthBrokerProto

extension WireCodec {
    /// Appends a frame header and the packed `message` to `buffer`, packing in place in its storage.
    @inline(__always)
    static func appendFrame<Message>(
        _ message: UnsafePointer<Message>,
        to buffer: inout [UInt8],
        packedSize: (UnsafePointer<Message>?) -> Int,
        pack: (UnsafePointer<Message>?, UnsafeMutablePointer<UInt8>?) -> Int
    ) {
        let size = packedSize(message)
        let start = buffer.count
        // Grows geometrically (unlike reserveCapacity), so appending many frames stays linear.
        #if DEBUG
        // Unoptimised builds append a repeatElement one element at a time; a zeroed array is a memset.
        buffer += [UInt8](repeating: 0, count: FrameDecoder.headerSize + size)
        #else
        buffer.append(contentsOf: repeatElement(0, count: FrameDecoder.headerSize + size))
        #endif
        buffer.withUnsafeMutableBufferPointer { out in
            let frame = out.baseAddress.unsafelyUnwrapped + start
            FrameHeader.write(length: size, to: frame)
            let written = pack(message, frame + FrameDecoder.headerSize)
            precondition(written == size, "protobuf-c packed \(written) bytes, announced \(size)")
        }
    }
}
