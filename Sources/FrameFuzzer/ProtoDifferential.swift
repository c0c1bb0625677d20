import BrokerModel
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
            compareRowWriter(bytes)
        }
    }

    /// When protobuf-c reads a sample page whose samples all map to model samples, the generated row
    /// writer (`Proto.SampleFields`: how the broker writes Query pages from its store rows) writes
    /// those samples to protobuf-c's packing of the frame holding their `Sample.proto`.
    static func compareRowWriter(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let frame = Proto.ServerFrame.unpacked(bytes), case .streamItem(let item)? = frame.response else { return }
        if case .anchoredPage(let page)? = item.item {
            compareAnchoredRowWriter(frame, page)
            return
        }
        guard case .samples(let page)? = item.item, let rows = try? Sample.samples(proto: page.samples) else { return }
        var written: [UInt8] = []
        rows.withUnsafeBufferPointer {
            Proto.ServerFrame.appendFrame(callID: frame.callID, status: frame.status, streamItemSamples: $0, to: &written)
        }
        var samples = Proto.SamplePage()
        samples.samples = Sample.proto(rows)
        checkWritten(written, equals: frame, holding: .samples(samples), "the generated sample row writer")
    }

    /// The same for an AnchoredQuery page (`AnchoredPage.appendFrame`, how the broker writes them):
    /// its added samples through the row writer, its deletions, anchor and done as they came.
    static func compareAnchoredRowWriter(_ frame: Proto.ServerFrame, _ page: Proto.AnchoredPage) {
        guard let added = try? Sample.samples(proto: page.added) else { return }
        var written: [UInt8] = []
        added.withUnsafeBufferPointer {
            Proto.ServerFrame.appendFrame(
                callID: frame.callID, status: frame.status, streamItemAnchoredPage: $0, deletedUUIDs: page.deletedUUIDs,
                newAnchor: page.newAnchor, done: page.done, deletedSourceAppIDs: page.deletedSourceAppIDs, to: &written)
        }
        var rebuiltPage = page
        rebuiltPage.added = Sample.proto(added)
        checkWritten(written, equals: frame, holding: .anchoredPage(rebuiltPage), "the generated anchored page row writer")
    }

    /// Checks that `written` (a frame with its header) is protobuf-c's packing of `frame` carrying
    /// the stream item `item` rebuilt from the model samples; `writer` names who wrote it.
    private static func checkWritten(_ written: [UInt8], equals frame: Proto.ServerFrame, holding item: Proto.StreamItem.Item, _ writer: String) {
        var rebuilt = frame
        var rebuiltItem = Proto.StreamItem()
        rebuiltItem.item = item
        rebuilt.response = .streamItem(rebuiltItem)
        FrameFuzzHarness.check(
            Array(written.dropFirst(FrameDecoder.headerSize)) == rebuilt.repackedByProtobufC(),
            "\(writer) and protobuf-c's pack wrote different bytes")
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
