import BrokerModel
import BrokerWire

/// Seed inputs the codec cannot make from Swift values: well-formed protobuf whose content this
/// broker cannot take (a sample without a value, a value kind it does not know), which must decode
/// as a call carrying its own INVALID_ARGUMENT; and sessions of stream and credit frames.
enum InvalidContentSeeds {
    /// The named seed files.
    static func files() -> [(name: String, bytes: [UInt8])] {
        let good = sample(uuid: "good", value: field([0x52], [0x09] + doubleBytes(3) + field([0x12], Array("count".utf8))))
        let bare = sample(uuid: "bare", value: [])
        let newer = sample(uuid: "newer", value: [0x70, 0x01])  // field 14: no value kind (13 is correlation)
        let saves = [
            ("call-save-sample-without-value", frame(call(41, key: [0x92, 0x03], body: samples([good, bare])))),
            ("call-save-unknown-value-kind", frame(call(42, key: [0x92, 0x03], body: samples([newer, good])))),
            (
                "call-import-sample-without-value",
                frame(call(43, key: [0xB2, 0x09], body: field([0x0A], Array("com.example.import".utf8)) + samples([bare], key: 0x12)))
            ),
        ]
        // Streams and credit: a PingStream asking for everything (count and credit 2^32 − 1), a query
        // and an observe with small windows, then credit (also overflowing), cancels and a ping.
        let frames: [ClientFrame] = [
            .call(Call(callID: 1, request: .hello(HelloRequest(appID: "com.example.steps", appToken: "hbt_x", protocolVersion: 1)))),
            .call(Call(
                callID: 2, initialCredit: UInt32.max,
                request: .pingStream(PingStreamRequest(count: UInt32.max, payload: [UInt8](repeating: 0xA5, count: 1_024))))),
            .call(Call(callID: 3, initialCredit: 1, request: .query(SampleQuery(type: .stepCount, pageSize: 1)))),
            .call(Call(callID: 4, initialCredit: 1, request: .observe([.stepCount]))),
            .credit(callID: 3, items: 1),
            .credit(callID: 2, items: UInt32.max),
            .credit(callID: 4, items: 0),
            .cancel(callID: 2),
            .credit(callID: 2, items: 5),
            .call(Call(callID: 5, request: .ping(PingRequest(payload: [5])))),
        ]
        let encoded = frames.map { frame -> [UInt8] in
            var bytes: [UInt8] = []
            WireCodec.append(frame, to: &bytes)
            return bytes
        }
        return saves.map { (name: $0.0, bytes: $0.1) } + [
            (name: "stream-credit-session", bytes: encoded.flatMap { $0 }),
            // An invalid Save between a stream's credit frames: the stream must not notice.
            (name: "stream-save-without-value-between-credits", bytes: (encoded.prefix(5) + [saves[0].1] + encoded.suffix(5)).flatMap { $0 }),
        ]
    }

    /// A Sample message: uuid, a step-count type, start and end, then `value` (raw field bytes).
    private static func sample(uuid: String, value: [UInt8]) -> [UInt8] {
        field([0x0A], Array(uuid.utf8)) + field([0x12], Array(ObjectType.stepCount.identifier.utf8))
            + [0x18] + varint(1_700_000_000_000_000) + [0x20] + varint(1_700_000_060_000_000) + value
    }

    /// A repeated Sample field: SaveRequest's is field 1 (key 0x0A), AdminImportRequest's field 2 (0x12).
    private static func samples(_ messages: [[UInt8]], key: UInt8 = 0x0A) -> [UInt8] {
        messages.flatMap { field([key], $0) }
    }

    /// A Call with `call_id` and one request field (`key`, already encoded) holding `body`.
    private static func call(_ callID: UInt64, key: [UInt8], body: [UInt8]) -> [UInt8] {
        [0x08] + varint(callID) + field(key, body)
    }

    /// A whole frame: header, then `message` as a ClientFrame's `call` field.
    private static func frame(_ call: [UInt8]) -> [UInt8] {
        let message = field([0x0A], call)
        var bytes: [UInt8] = []
        FrameHeader.append(length: message.count, to: &bytes)
        return bytes + message
    }

    private static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    private static func field(_ key: [UInt8], _ body: [UInt8]) -> [UInt8] { key + varint(UInt64(body.count)) + body }

    private static func doubleBytes(_ value: Double) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * $0)) }
    }
}
