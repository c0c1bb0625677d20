import HealthBrokerProto

extension WireCodec {
    /// Unpacks `payload` with protobuf-c into a scratch arena, hands the message (nil if the bytes do
    /// not decode) to `body`, then frees it.
    @inline(__always)
    static func withUnpacked<Message, R>(
        _ payload: ArraySlice<UInt8>,
        unpack: (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) -> UnsafeMutablePointer<Message>?,
        free: (UnsafeMutablePointer<Message>?, UnsafeMutablePointer<ProtobufCAllocator>?) -> Void,
        _ body: (UnsafePointer<Message>?) -> R
    ) -> R {
        UnpackArena.withAllocator { allocator in
            let message = payload.withUnsafeBufferPointer { bytes in
                unpack(allocator, bytes.count, bytes.baseAddress)
            }
            defer { if let message { free(message, allocator) } }
            return body(message.map { UnsafePointer($0) })
        }
    }
}
