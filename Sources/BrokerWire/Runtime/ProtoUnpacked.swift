#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HealthBrokerProto

/// What the generated copies from protobuf-c's unpacked structs share.
enum ProtoUnpacked {
    /// A C string field as Swift reads it (invalid UTF-8 repaired, as `String(cString:)` does).
    @inline(__always)
    static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// A bytes field.
    @inline(__always)
    static func bytes(_ data: ProtobufCBinaryData) -> [UInt8] {
        guard let base = data.data, data.len > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: data.len))
    }

    /// A repeated field of `count` elements at `base`, each transformed.
    @inline(__always)
    static func array<Element, Value>(
        _ base: UnsafeMutablePointer<Element>?, count: Int, _ transform: (Element) -> Value
    ) -> [Value] {
        guard let base, count > 0 else { return [] }
        var values: [Value] = []
        values.reserveCapacity(count)
        for index in 0..<count { values.append(transform(base[index])) }
        return values
    }

    /// Unpacks `bytes` with protobuf-c into a scratch arena, hands the message (nil if the bytes do
    /// not decode) to `body`, then frees it.
    @inline(__always)
    static func withUnpacked<Message, R>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        unpack: (UnsafeMutablePointer<ProtobufCAllocator>?, Int, UnsafePointer<UInt8>?) -> UnsafeMutablePointer<Message>?,
        free: (UnsafeMutablePointer<Message>?, UnsafeMutablePointer<ProtobufCAllocator>?) -> Void,
        _ body: (UnsafePointer<Message>?) -> R
    ) -> R {
        UnpackArena.withAllocator { allocator, spilled in
            let message = unpack(allocator, bytes.count, bytes.baseAddress)
            // Arena blocks need no freeing: walk the message only when some block came from malloc.
            defer { if let message, spilled() { free(message, allocator) } }
            return body(message.map { UnsafePointer($0) })
        }
    }

    /// protobuf-c's own packing of `message`.
    static func pack<Message>(
        _ message: UnsafePointer<Message>,
        packedSize: (UnsafePointer<Message>?) -> Int,
        pack: (UnsafePointer<Message>?, UnsafeMutablePointer<UInt8>?) -> Int
    ) -> [UInt8] {
        let size = packedSize(message)
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBufferPointer { pack(message, $0.baseAddress) }
        precondition(written == size, "protobuf-c packed \(written) bytes, announced \(size)")
        return bytes
    }
}

extension ProtoUnpacked {
    /// The field numbers of the unknown fields protobuf-c kept in `base`, in the order they came.
    @inline(__always)
    static func unknownFieldNumbers(_ base: ProtobufCMessage) -> [UInt32]? {
        guard base.n_unknown_fields > 0, let fields = base.unknown_fields else { return nil }
        return (0..<Int(base.n_unknown_fields)).map { fields[$0].tag }
    }
}
