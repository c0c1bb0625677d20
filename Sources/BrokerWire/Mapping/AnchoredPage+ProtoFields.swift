package import BrokerModel

// An AnchoredQuery page written in place: its added samples through the generated row writer
// (`Sample+ProtoFields`), its deletions, anchor and done as values, to the bytes of its `proto`
// (SampleRowWriterTests and the fuzzer compare them with protobuf-c).
extension AnchoredPage {
    /// Appends a ServerFrame whose stream item is this AnchoredPage, its added samples written in
    /// place by the row writer: the bytes of the frame holding `proto` (no `Proto.Sample` per row).
    package func appendFrame(callID: UInt64, to buffer: inout [UInt8]) {
        added.withUnsafeBufferPointer {
            Proto.ServerFrame.appendFrame(
                callID: callID, status: nil, streamItemAnchoredPage: $0, deletedUUIDs: deletedUUIDs, newAnchor: newAnchor,
                done: done, deletedSourceAppIDs: deletedSourceAppIDs, to: &buffer)
        }
    }
}
