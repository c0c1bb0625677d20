import BrokerWire

/// The fuzz target's third property: on every frame, the generated strict reader and protobuf-c
/// (the codec of record) agree, and the generated encoder writes protobuf-c's bytes.
///
/// For ClientFrame and ServerFrame alike: when the strict reader accepts the bytes, protobuf-c must
/// accept them too and read the same value (compared by encoding, so NaN payloads compare by bits);
/// when protobuf-c accepts them, encoding its value and letting protobuf-c unpack and pack that
/// again must give the same bytes.
enum ProtoDifferential {
    /// Checks `payload` as a ClientFrame and as a ServerFrame.
    static func run(_ payload: ArraySlice<UInt8>) {
        payload.withUnsafeBufferPointer { bytes in
            compare(Proto.ClientFrame.self, bytes, "ClientFrame")
            compare(Proto.ServerFrame.self, bytes, "ServerFrame")
        }
    }

    /// Compares the strict reader with protobuf-c, and the generated encoder with protobuf-c's pack.
    static func compare<Message: ProtoMessage>(_ type: Message.Type, _ bytes: UnsafeBufferPointer<UInt8>, _ name: String) {
        var reader = ProtoReader(bytes)
        let strict = Message(strict: &reader)
        let reference = Message.unpacked(bytes)
        if let strict {
            guard let reference else { FrameFuzzHarness.fail("the strict \(name) reader accepted bytes protobuf-c rejects") }
            FrameFuzzHarness.check(
                strict.encoded() == reference.encoded(), "the strict \(name) reader and protobuf-c read different values")
        }
        if let reference {
            let encoded = reference.encoded()
            FrameFuzzHarness.check(
                reference.repackedByProtobufC() == encoded,
                "the generated \(name) encoder and protobuf-c's pack wrote different bytes")
        }
    }
}
