import HealthBrokerProto

extension WireCodec {
    /// Unpacks `payload` with protobuf-c into a scratch arena, hands the message (nil if the bytes do
    /// not decode) to `body`, then frees it.
    ///
    /// `body`'s typed error passes straight through (no `Result` to wrap and copy the value into).
    @inline(__always)
    static func withUnpacked<Message, R, E: Error>(
        _ payload: UnsafeBufferPointer<UInt8>,
        unpack: (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) -> UnsafeMutablePointer<Message>?,
        free: (UnsafeMutablePointer<Message>?, UnsafeMutablePointer<ProtobufCAllocator>?) -> Void,
        _ body: (UnsafePointer<Message>?) throws(E) -> R
    ) throws(E) -> R {
        try UnpackArena.withAllocator { allocator, spilled throws(E) in
            let message = unpack(allocator, payload.count, payload.baseAddress)
            // Arena blocks need no freeing: walk the message only when some block came from malloc.
            defer { if let message, spilled() { free(message, allocator) } }
            return try body(message.map { UnsafePointer($0) })
        }
    }
}
