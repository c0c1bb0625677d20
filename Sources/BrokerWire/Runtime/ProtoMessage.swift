/// A message generated from the .proto (scripts/generate-wire.py): sized, written and read exactly
/// as protobuf-c packs and unpacks it.
public protocol ProtoMessage: Hashable, Sendable {
    /// An empty message: every field at its default.
    init()
    /// Reads the whole of `reader` strictly; nil when protobuf-c might read it differently.
    init?(strict reader: inout ProtoReader)
    /// Decodes `bytes` with protobuf-c (the codec of record); nil when protobuf-c cannot.
    static func unpacked(_ bytes: UnsafeBufferPointer<UInt8>) -> Self?
    /// The packed size; keeps in `sizes` the size of every nested message and the byte count of
    /// every string, in write order.
    func measure(_ sizes: inout ProtoSizes) -> Int
    /// Writes the fields, taking nested sizes and string counts from `sizes` in the order `measure`
    /// kept them.
    func write(_ writer: inout ProtoWriter, _ sizes: inout ProtoSizes)
    /// protobuf-c's packing of what protobuf-c reads from `encoded()`: equal to `encoded()` when the
    /// generated encoder writes protobuf-c's bytes (tests and the fuzzer compare); nil when
    /// protobuf-c cannot read `encoded()`.
    func repackedByProtobufC() -> [UInt8]?
}

extension ProtoMessage {
    /// Decodes `bytes`: strictly where the strict reader takes them, through protobuf-c otherwise;
    /// nil when protobuf-c cannot decode them either.
    ///
    /// Either way the value is protobuf-c's reading of the bytes (ProtoCodecTests and the fuzzer
    /// compare the two on every input), so protobuf-c stays the codec of record.
    @inline(__always)
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Self? {
        var reader = ProtoReader(bytes)
        if let message = Self(strict: &reader) { return message }
        return unpacked(bytes)
    }

    /// Decodes `bytes` (see `decode(_:)` of a buffer).
    public static func decode(_ bytes: ArraySlice<UInt8>) -> Self? {
        bytes.withUnsafeBufferPointer { decode($0) }
    }

    /// The packed bytes of the message, as protobuf-c packs it.
    public func encoded() -> [UInt8] {
        var buffer: [UInt8] = []
        append(to: &buffer, header: false)
        return buffer
    }

    /// Appends the message as a whole frame: the 5-byte header, then the packed message.
    @inline(__always)
    public func appendFrame(to buffer: inout [UInt8]) {
        append(to: &buffer, header: true)
    }

    @inline(__always)
    private func append(to buffer: inout [UInt8], header: Bool) {
        var sizes = ProtoSizes()
        let size = measure(&sizes)
        ProtoEncoding.append(size: size, header: header, to: &buffer) { writer in
            sizes.rewind()
            write(&writer, &sizes)
        }
    }
}
