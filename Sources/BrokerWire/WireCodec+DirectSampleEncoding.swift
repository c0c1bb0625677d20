#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BrokerModel

// The stream items carrying pages of samples (SamplePage for Query and AdminExport, AnchoredPage for
// AnchoredQuery) encoded straight into the output buffer, without rebuilding every sample as
// protobuf-c structs (`withCSamples`) and walking descriptors twice to size and pack them.
//
// The bytes are exactly protobuf-c's, by the rules of WireCodec+DirectEncoding: fields by number;
// proto3 zero scalars (a double equal to 0, -0.0 included), empty strings and empty bytes left out; a
// oneof case or set sub-message always written, even when zero or empty; every element of a repeated
// field written, empty ones included; strings cut at their first NUL as a C string is. Metadata goes
// out as `withCSamples` leaves it: the dictionary's entries in its iteration order, sorted by key
// bytes up to the first NUL (strcmp order) with the same sort. WireCodecDirectSamplePageTests compare
// the two encoders.
extension WireCodec {
    /// Appends a ServerFrame whose response is a SamplePage stream item holding `samples`.
    static func appendSamplePage(callID: UInt64, status: Status?, samples: [Sample], to buffer: inout [UInt8]) {
        samples.withUnsafeBufferPointer { samples in
            appendSamplePage(callID: callID, status: status, samples: samples, to: &buffer)
        }
    }

    /// `appendSamplePage` over the samples in place (read without copying each one out of the array).
    private static func appendSamplePage(
        callID: UInt64, status: Status?, samples: UnsafeBufferPointer<Sample>, to buffer: inout [UInt8]
    ) {
        withSampleSizes(samples) { sizes in
            let pageSize = repeatedSampleSize(sizes)
            // StreamItem: samples (52), a two-byte key.
            let itemSize = 2 + varintSize(pageSize) + pageSize
            appendFrame(callID: callID, status: status, responseField: 3, responseSize: itemSize, to: &buffer) { out in
                out.byte(0xA2)
                out.byte(0x03)
                out.varint(pageSize)
                writeSamples(samples, sizes: sizes, &out)
            }
        }
    }

    /// Appends a ServerFrame whose response is an AnchoredPage stream item holding `page`.
    static func appendAnchoredPage(callID: UInt64, status: Status?, page: AnchoredPage, to buffer: inout [UInt8]) {
        page.added.withUnsafeBufferPointer { added in
            appendAnchoredPage(callID: callID, status: status, page: page, added: added, to: &buffer)
        }
    }

    /// `appendAnchoredPage` with `page.added` in place.
    private static func appendAnchoredPage(
        callID: UInt64, status: Status?, page: AnchoredPage, added: UnsafeBufferPointer<Sample>, to buffer: inout [UInt8]
    ) {
        withSampleSizes(added) { sizes in
            var pageSize = repeatedSampleSize(sizes)
            pageSize += repeatedStringSize(page.deletedUUIDs)
            pageSize += bytesFieldSize(page.newAnchor.count) + (page.done ? 2 : 0)
            pageSize += repeatedStringSize(page.deletedSourceAppIDs)
            // StreamItem: anchored_page (53), a two-byte key.
            let itemSize = 2 + varintSize(pageSize) + pageSize
            appendFrame(callID: callID, status: status, responseField: 3, responseSize: itemSize, to: &buffer) { out in
                out.byte(0xAA)
                out.byte(0x03)
                out.varint(pageSize)
                writeSamples(added, sizes: sizes, &out)
                writeRepeatedString(page.deletedUUIDs, key: 0x12, &out)
                if !page.newAnchor.isEmpty {
                    out.byte(0x1A)
                    out.varint(page.newAnchor.count)
                    page.newAnchor.withUnsafeBufferPointer { out.bytes($0) }
                }
                if page.done {
                    out.byte(0x20)
                    out.byte(0x01)
                }
                // deleted_source_app_ids (5) after done (4): protobuf-c packs by field number.
                writeRepeatedString(page.deletedSourceAppIDs, key: 0x2A, &out)
            }
        }
    }

    // MARK: Sizes

    /// Runs `body` with the encoded size of each of `samples` (without key and length), in scratch
    /// memory valid only inside `body`.
    @inline(__always)
    private static func withSampleSizes<R>(
        _ samples: UnsafeBufferPointer<Sample>, _ body: (UnsafeBufferPointer<Int>) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(samples.count, 1)) { scratch in
            let first = scratch.baseAddress.unsafelyUnwrapped
            if let base = samples.baseAddress {
                for index in samples.indices { (first + index).initialize(to: sampleSize(base + index)) }
            }
            return body(UnsafeBufferPointer(start: first, count: samples.count))
        }
    }

    /// A repeated Sample field with key 0x0A of samples of `sizes`.
    @inline(__always)
    private static func repeatedSampleSize(_ sizes: UnsafeBufferPointer<Int>) -> Int {
        var total = 0
        for size in sizes { total += 1 + varintSize(size) + size }
        return total
    }

    /// A repeated string field with a one-byte key: every element, empty ones included, as its C string.
    @inline(__always)
    private static func repeatedStringSize(_ strings: [String]) -> Int {
        var total = 0
        for string in strings {
            let count = cStringByteCount(string)
            total += 1 + varintSize(count) + count
        }
        return total
    }

    /// A Sample's encoded size (read in place).
    private static func sampleSize(_ sample: UnsafePointer<Sample>) -> Int {
        var size = cStringFieldSize(sample.pointee.uuid) + bytesFieldSize(typeByteCount(sample.pointee.type))
            + int64FieldSize(sample.pointee.startMicros) + int64FieldSize(sample.pointee.endMicros)
        switch sample.pointee.value {
        case .quantity(let quantity):
            let quantitySize = quantitySize(quantity)
            size += 1 + varintSize(quantitySize) + quantitySize
        case .category(let value):
            size += 1 + varintSize(UInt64(bitPattern: value))
        case .workout(let workout):
            let workoutSize = workoutSize(workout)
            size += 1 + varintSize(workoutSize) + workoutSize
        }
        if !sample.pointee.metadata.isEmpty {
            for (key, value) in sample.pointee.metadata {
                let entrySize = metadataEntrySize(key: key, value: value)
                size += 2 + varintSize(entrySize) + entrySize
            }
        }
        let sourceBytes = cStringByteCount(sample.pointee.sourceAppID)
        if sourceBytes > 0 { size += 2 + varintSize(sourceBytes) + sourceBytes }
        if sample.pointee.createdMicros != 0 { size += 2 + varintSize(UInt64(bitPattern: sample.pointee.createdMicros)) }
        return size
    }

    /// A Quantity's encoded size.
    @inline(__always)
    private static func quantitySize(_ quantity: Quantity) -> Int {
        (quantity.value == 0 ? 0 : 9) + cStringFieldSize(quantity.unit)
    }

    /// A Workout's encoded size.
    private static func workoutSize(_ workout: WorkoutDetails) -> Int {
        var size = cStringFieldSize(workout.activityType) + int64FieldSize(workout.durationMicros)
        if let energy = workout.totalEnergy {
            let energySize = quantitySize(energy)
            size += 1 + varintSize(energySize) + energySize
        }
        if let distance = workout.totalDistance {
            let distanceSize = quantitySize(distance)
            size += 1 + varintSize(distanceSize) + distanceSize
        }
        return size
    }

    /// A MetadataEntry's encoded size.
    @inline(__always)
    private static func metadataEntrySize(key: String, value: String) -> Int {
        cStringFieldSize(key) + cStringFieldSize(value)
    }

    /// A string field with a one-byte key, as its C string: left out when empty.
    @inline(__always)
    private static func cStringFieldSize(_ string: String) -> Int {
        bytesFieldSize(cStringByteCount(string))
    }

    /// The bytes of `string` up to its first NUL.
    @inline(__always)
    private static func cStringByteCount(_ string: String) -> Int {
        withCStringBytes(string) { $0.count }
    }

    /// Runs `body` with the UTF-8 bytes of `string` up to its first NUL (its C string), read in place.
    @inline(__always)
    private static func withCStringBytes<R>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = string.utf8.withContiguousStorageIfAvailable({ body(cStringBytes($0)) }) { return result }
        var string = string
        return string.withUTF8 { body(cStringBytes($0)) }
    }

    /// The bytes of `type`'s identifier up to its first NUL (a catalogued spelling has none).
    @inline(__always)
    private static func typeByteCount(_ type: ObjectType) -> Int {
        TypeCatalogue.catalogueSpelling(of: type)?.count ?? cStringByteCount(type.identifier)
    }

    // MARK: Writing

    /// Writes each of `samples` as a repeated field with key 0x0A; `sizes` are their sizes.
    @inline(__always)
    private static func writeSamples(
        _ samples: UnsafeBufferPointer<Sample>, sizes: UnsafeBufferPointer<Int>, _ out: inout DirectWriter
    ) {
        guard let base = samples.baseAddress else { return }
        for index in samples.indices {
            let size = sizes[index]
            out.byte(0x0A)
            out.varint(size)
            let start = out.cursor
            writeSample(base + index, &out)
            precondition(
                out.cursor == start + size,
                "direct encoding wrote a sample of \(out.cursor - start) bytes, announced \(size)")
        }
    }

    /// Writes a repeated string field with the one-byte key `key`: every element as its C string,
    /// written even when empty (a repeated field keeps its empty elements).
    @inline(__always)
    private static func writeRepeatedString(_ strings: [String], key: UInt8, _ out: inout DirectWriter) {
        for string in strings {
            withCStringBytes(string) { text in
                out.byte(key)
                out.varint(text.count)
                out.bytes(text)
            }
        }
    }

    /// Writes a Sample's fields (read in place).
    private static func writeSample(_ sample: UnsafePointer<Sample>, _ out: inout DirectWriter) {
        writeCString(sample.pointee.uuid, key: 0x0A, &out)
        if let spelling = TypeCatalogue.catalogueSpelling(of: sample.pointee.type) {
            out.byte(0x12)
            out.varint(spelling.count)
            out.bytes(spelling)
        } else {
            writeCString(sample.pointee.type.identifier, key: 0x12, &out)
        }
        out.int64Field(0x18, sample.pointee.startMicros)
        out.int64Field(0x20, sample.pointee.endMicros)
        switch sample.pointee.value {
        case .quantity(let quantity):
            writeQuantity(quantity, key: 0x52, &out)
        case .category(let value):
            // A oneof case: written even when 0.
            out.byte(0x58)
            out.varint(UInt64(bitPattern: value))
        case .workout(let workout):
            out.byte(0x62)
            out.varint(workoutSize(workout))
            writeCString(workout.activityType, key: 0x0A, &out)
            out.int64Field(0x10, workout.durationMicros)
            if let energy = workout.totalEnergy { writeQuantity(energy, key: 0x1A, &out) }
            if let distance = workout.totalDistance { writeQuantity(distance, key: 0x22, &out) }
        }
        writeMetadata(sample.pointee.metadata, &out)
        writeCString(sample.pointee.sourceAppID, key: 0xAA, secondKeyByte: 0x01, &out)
        if sample.pointee.createdMicros != 0 {
            out.byte(0xB0)
            out.byte(0x01)
            out.varint(UInt64(bitPattern: sample.pointee.createdMicros))
        }
    }

    /// Writes a Quantity sub-message with key `key` (always, even when empty).
    @inline(__always)
    private static func writeQuantity(_ quantity: Quantity, key: UInt8, _ out: inout DirectWriter) {
        out.byte(key)
        out.varint(quantitySize(quantity))
        if quantity.value != 0 {
            out.byte(0x09)
            out.fixed64(quantity.value.bitPattern)
        }
        writeCString(quantity.unit, key: 0x12, &out)
    }

    /// Writes the metadata entries (field 20) in `withCSamples`' order: the dictionary's, sorted by
    /// key bytes up to the first NUL.
    @inline(__always)
    private static func writeMetadata(_ metadata: [String: String], _ out: inout DirectWriter) {
        guard !metadata.isEmpty else { return }
        guard metadata.count > 1 else {
            for (key, value) in metadata { writeMetadataEntry(key: key, value: value, &out) }
            return
        }
        withTemporaryEntries(of: metadata, as: { (key: $0, value: $1) }) { entries in
            var entries = entries
            entries.sort { left, right in precedesAsCStrings(left.key, right.key) }
            for entry in entries { writeMetadataEntry(key: entry.key, value: entry.value, &out) }
        }
    }

    /// Writes one MetadataEntry (field 20, a two-byte key).
    @inline(__always)
    private static func writeMetadataEntry(key: String, value: String, _ out: inout DirectWriter) {
        out.byte(0xA2)
        out.byte(0x01)
        out.varint(metadataEntrySize(key: key, value: value))
        writeCString(key, key: 0x0A, &out)
        writeCString(value, key: 0x12, &out)
    }

    /// Writes a string field (key `key`, then `secondKeyByte` unless 0) as its C string: left out
    /// when that is empty.
    @inline(__always)
    private static func writeCString(_ string: String, key: UInt8, secondKeyByte: UInt8 = 0, _ out: inout DirectWriter) {
        withCStringBytes(string) { text in
            guard !text.isEmpty else { return }
            out.byte(key)
            if secondKeyByte != 0 { out.byte(secondKeyByte) }
            out.varint(text.count)
            out.bytes(text)
        }
    }

    /// strcmp order of two strings read as C strings (up to their first NUL).
    private static func precedesAsCStrings(_ left: String, _ right: String) -> Bool {
        withCStringBytes(left) { leftBytes in
            withCStringBytes(right) { rightBytes in
                let common = min(leftBytes.count, rightBytes.count)
                let order = common == 0 ? 0 : memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, common)
                return order != 0 ? order < 0 : leftBytes.count < rightBytes.count
            }
        }
    }
}
