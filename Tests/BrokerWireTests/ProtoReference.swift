import BrokerModel
@testable import BrokerWire

/// The two halves of the codec the differential tests hold against each other: protobuf-c (the
/// codec of record: `Proto.X.unpacked(_:)`, `repackedByProtobufC()`) and the generated strict
/// decoder alone (`Proto.X(strict:)`), each mapped to the model as `WireCodec` maps it.
enum ProtoReference {
    /// `WireCodec.decodeClientFrame` through protobuf-c alone, whatever the bytes.
    static func clientFrameByProtobufC(_ bytes: ArraySlice<UInt8>) throws(BrokerError) -> ClientFrame {
        let message = bytes.withUnsafeBufferPointer { Proto.ClientFrame.unpacked($0) }
        guard let message else { throw WireCodec.undecodable("ClientFrame") }
        return try ClientFrame(proto: message)
    }

    /// `WireCodec.decodeServerFrame` through protobuf-c alone, whatever the bytes.
    static func serverFrameByProtobufC(_ bytes: ArraySlice<UInt8>) throws(BrokerError) -> ServerFrame {
        let message = bytes.withUnsafeBufferPointer { Proto.ServerFrame.unpacked($0) }
        guard let message else { throw WireCodec.undecodable("ServerFrame") }
        return ServerFrame(proto: message)
    }

    /// The ClientFrame the strict decoder alone reads from `bytes`; nil when it leaves them to
    /// protobuf-c (or they map to no frame).
    static func strictClientFrame(_ bytes: UnsafeBufferPointer<UInt8>) -> ClientFrame? {
        var reader = ProtoReader(bytes)
        guard let message = Proto.ClientFrame(strict: &reader) else { return nil }
        return try? ClientFrame(proto: message)
    }

    /// The ServerFrame the strict decoder alone reads from `bytes`; nil when it leaves them to
    /// protobuf-c (or they map to no frame).
    static func strictServerFrame(_ bytes: UnsafeBufferPointer<UInt8>) -> ServerFrame? {
        var reader = ProtoReader(bytes)
        guard let message = Proto.ServerFrame(strict: &reader) else { return nil }
        return ServerFrame(proto: message)
    }

    /// Appends `frame` as protobuf-c packs it (header, then the message protobuf-c repacks from the
    /// generated encoding), for comparison with `WireCodec.append`.
    static func appendByProtobufC(_ frame: ClientFrame, to buffer: inout [UInt8]) {
        append(frame.proto.repackedByProtobufC(), to: &buffer)
    }

    /// Appends `frame` as protobuf-c packs it (see the ClientFrame form).
    static func appendByProtobufC(_ frame: ServerFrame, to buffer: inout [UInt8]) {
        append(frame.proto.repackedByProtobufC(), to: &buffer)
    }

    private static func append(_ message: [UInt8]?, to buffer: inout [UInt8]) {
        guard let message else { preconditionFailure("protobuf-c could not read the generated encoding") }
        FrameHeader.append(length: message.count, to: &buffer)
        buffer += message
    }

    /// `string` up to its first NUL, as protobuf-c reads a C string.
    static func cStringPrefix(_ string: String) -> String {
        guard let nul = string.utf8.firstIndex(of: 0) else { return string }
        return String(string[..<nul])
    }
}
