import BrokerModel

// The ServerFrames that carry a page of samples (a stream item holding a SamplePage, from Query and
// AdminExport, or an AnchoredPage, from AnchoredQuery) decoded straight from the bytes, without
// protobuf-c: no unpack into one malloc'd C struct per sample, metadata entry and string, no
// free_unpacked walk; Swift strings are made from the field bytes in place.
//
// Like WireCodec+DirectDecoding it is strict rather than complete: it accepts only bytes whose
// protobuf-c decoding is unambiguous (every field known, with its expected wire type and its
// shortest key, a singular field at most once, one oneof case, lengths inside their message, a
// bool as one byte 0 or 1; no status) and returns nil for anything else, which then goes through
// protobuf-c. For what it accepts it returns exactly the protobuf-c path's value: strings cut at
// their first NUL and invalid UTF-8 repaired (as `string(_:)` does), metadata keys inserted in wire
// order so that a repeated key keeps its last value. Strings that repeat from sample to sample are
// made once (DirectSampleStrings). WireCodecDirectSamplePageTests compare the two paths.
extension WireCodec {
    /// The decoded frame when `bytes` is a ServerFrame holding a page of samples in the common
    /// shape; nil to decode through protobuf-c.
    static func decodeSamplePageServerFrame(_ bytes: UnsafeBufferPointer<UInt8>) -> ServerFrame? {
        var reader = DirectReader(bytes)
        var callID: UInt64 = 0
        var seenCallID = false
        var item: StreamItem?
        while !reader.isAtEnd {
            switch reader.byte() {
            case 0x08:  // call_id, uint64
                guard !seenCallID, let value = reader.varint() else { return nil }
                seenCallID = true
                callID = value
            case 0x1A:  // stream_item (3)
                guard item == nil, let body = reader.lengthDelimited(), let decoded = samplePageItem(body) else {
                    return nil
                }
                item = decoded
            default:
                return nil
            }
        }
        guard let item else { return nil }
        return ServerFrame(callID: callID, response: .streamItem(item))
    }

    /// StreamItem holding only `samples` (52) or `anchored_page` (53): two-byte keys.
    private static func samplePageItem(_ bytes: UnsafeBufferPointer<UInt8>) -> StreamItem? {
        var reader = DirectReader(bytes)
        guard let key = reader.byte(), key == 0xA2 || key == 0xAA, reader.byte() == 0x03,
            let body = reader.lengthDelimited(), reader.isAtEnd
        else { return nil }
        var strings = DirectSampleStrings()
        if key == 0xA2 {
            guard let samples = directSamplePage(body, strings: &strings) else { return nil }
            return .samples(samples)
        }
        guard let page = directAnchoredPage(body, strings: &strings) else { return nil }
        return .anchoredPage(page)
    }

    /// SamplePage: samples (1, repeated Sample).
    private static func directSamplePage(
        _ bytes: UnsafeBufferPointer<UInt8>, strings: inout DirectSampleStrings
    ) -> [Sample]? {
        // Counted first, so the array is allocated once.
        var counter = DirectReader(bytes)
        var count = 0
        while !counter.isAtEnd {
            guard counter.byte() == 0x0A, counter.lengthDelimited() != nil else { return nil }
            count += 1
        }
        return directSampleList(bytes, count: count, strings: &strings)
    }

    /// AnchoredPage: added (1, repeated Sample), deleted_uuids (2, repeated string), new_anchor (3,
    /// bytes), done (4, bool), deleted_source_app_ids (5, repeated string). The two deleted lists are
    /// taken as they come, even when their lengths differ, as protobuf-c takes them.
    private static func directAnchoredPage(
        _ bytes: UnsafeBufferPointer<UInt8>, strings: inout DirectSampleStrings
    ) -> AnchoredPage? {
        // A first pass checks the fields, counts the repeated ones and reads the singular ones.
        var page = AnchoredPage()
        var counter = DirectReader(bytes)
        var addedCount = 0
        var deletedCount = 0
        var sourceCount = 0
        var seen: UInt8 = 0
        while !counter.isAtEnd {
            switch counter.byte() {
            case 0x0A:
                guard counter.lengthDelimited() != nil else { return nil }
                addedCount += 1
            case 0x12:
                guard counter.lengthDelimited() != nil else { return nil }
                deletedCount += 1
            case 0x2A:
                guard counter.lengthDelimited() != nil else { return nil }
                sourceCount += 1
            case 0x1A:
                guard seen & 1 == 0, let body = counter.lengthDelimited() else { return nil }
                seen |= 1
                page.newAnchor = Array(body)
            case 0x20:
                // protobuf-c reads any varint with a set bit as true: only the canonical bytes are taken.
                guard seen & 2 == 0, let value = counter.byte(), value <= 1 else { return nil }
                seen |= 2
                page.done = value == 1
            default:
                return nil
            }
        }
        guard let added = directSampleList(bytes, count: addedCount, strings: &strings) else { return nil }
        page.added = added
        if deletedCount > 0 || sourceCount > 0 {
            page.deletedUUIDs.reserveCapacity(deletedCount)
            page.deletedSourceAppIDs.reserveCapacity(sourceCount)
            var reader = DirectReader(bytes)
            while !reader.isAtEnd {
                switch reader.byte() {
                case 0x12:
                    page.deletedUUIDs.append(fieldString(reader.lengthDelimited().unsafelyUnwrapped))
                case 0x2A:
                    // Few distinct apps, so each is made once (as a sample's source_app_id is).
                    page.deletedSourceAppIDs.append(strings.sourceAppID(reader.lengthDelimited().unsafelyUnwrapped))
                case 0x20:
                    _ = reader.byte()
                default:
                    _ = reader.lengthDelimited()
                }
            }
        }
        return page
    }

    /// The `count` samples of the fields with key 0x0A of a message already checked by a first pass
    /// (its other fields length-delimited, or 0x20 with a one-byte value), decoded in place into a new
    /// array; nil when one is not in the common shape.
    private static func directSampleList(
        _ bytes: UnsafeBufferPointer<UInt8>, count: Int, strings: inout DirectSampleStrings
    ) -> [Sample]? {
        guard count > 0 else { return [] }
        var complete = true
        let samples = [Sample](unsafeUninitializedCapacity: count) { buffer, initialized in
            let base = buffer.baseAddress.unsafelyUnwrapped
            let blank = blankSample
            var reader = DirectReader(bytes)
            while !reader.isAtEnd, initialized < count {
                let key = reader.byte()
                if key == 0x20 {
                    _ = reader.byte()
                    continue
                }
                let body = reader.lengthDelimited().unsafelyUnwrapped
                guard key == 0x0A else { continue }
                let slot = base + initialized
                slot.initialize(to: blank)
                initialized += 1
                guard directSample(body, into: slot, strings: &strings) else {
                    complete = false
                    return
                }
            }
        }
        return complete ? samples : nil
    }

    /// Sample: uuid (1), type (2), start_us (3), end_us (4), one of quantity (10), category_value
    /// (11) and workout (12), metadata (20, repeated), source_app_id (21), created_us (22).
    /// Fills `sample` (initialized to `blankSample`) in place; false when the bytes are not in the
    /// common shape.
    @inline(__always)
    private static func directSample(
        _ bytes: UnsafeBufferPointer<UInt8>, into sample: UnsafeMutablePointer<Sample>, strings: inout DirectSampleStrings
    ) -> Bool {
        var reader = DirectReader(bytes)
        // `seen` bit 64 marks the value case as set.
        var seen: UInt8 = 0
        while !reader.isAtEnd {
            switch reader.byte() {
            case 0x0A:  // uuid
                guard seen & 1 == 0, let body = reader.lengthDelimited() else { return false }
                seen |= 1
                sample.pointee.uuid = fieldString(body)
            case 0x12:  // type
                guard seen & 2 == 0, let body = reader.lengthDelimited() else { return false }
                seen |= 2
                sample.pointee.type = strings.type(body)
            case 0x18:  // start_us
                guard seen & 4 == 0, let raw = reader.varint() else { return false }
                seen |= 4
                sample.pointee.startMicros = Int64(bitPattern: raw)
            case 0x20:  // end_us
                guard seen & 8 == 0, let raw = reader.varint() else { return false }
                seen |= 8
                sample.pointee.endMicros = Int64(bitPattern: raw)
            case 0x52:  // quantity (10)
                guard seen & 64 == 0, let body = reader.lengthDelimited(),
                    let quantity = directQuantity(body, strings: &strings)
                else { return false }
                seen |= 64
                sample.pointee.value = .quantity(quantity)
            case 0x58:  // category_value (11)
                guard seen & 64 == 0, let raw = reader.varint() else { return false }
                seen |= 64
                sample.pointee.value = .category(Int64(bitPattern: raw))
            case 0x62:  // workout (12)
                guard seen & 64 == 0, let body = reader.lengthDelimited(),
                    let workout = directWorkout(body, strings: &strings)
                else { return false }
                seen |= 64
                sample.pointee.value = .workout(workout)
            case 0xA2:  // metadata (20), repeated: wire order, a repeated key keeping its last value
                guard reader.byte() == 0x01, let body = reader.lengthDelimited(),
                    directMetadataEntry(body, into: &sample.pointee.metadata, strings: &strings)
                else { return false }
            case 0xAA:  // source_app_id (21)
                guard reader.byte() == 0x01, seen & 16 == 0, let body = reader.lengthDelimited() else { return false }
                seen |= 16
                sample.pointee.sourceAppID = strings.sourceAppID(body)
            case 0xB0:  // created_us (22)
                guard reader.byte() == 0x01, seen & 32 == 0, let raw = reader.varint() else { return false }
                seen |= 32
                sample.pointee.createdMicros = Int64(bitPattern: raw)
            default:
                return false
            }
        }
        // No value case: undecodable, which protobuf-c's path reports.
        return seen & 64 != 0
    }

    /// Quantity: value (1, double), unit (2, string).
    @inline(__always)
    private static func directQuantity(
        _ bytes: UnsafeBufferPointer<UInt8>, strings: inout DirectSampleStrings
    ) -> Quantity? {
        var reader = DirectReader(bytes)
        var value = 0.0
        var unit = ""
        var seen: UInt8 = 0
        while !reader.isAtEnd {
            switch reader.byte() {
            case 0x09:
                guard seen & 1 == 0, let raw = reader.fixed64() else { return nil }
                seen |= 1
                value = Double(bitPattern: raw)
            case 0x12:
                guard seen & 2 == 0, let body = reader.lengthDelimited() else { return nil }
                seen |= 2
                unit = strings.unit(body)
            default:
                return nil
            }
        }
        return Quantity(value, unit)
    }

    /// Workout: activity_type (1), duration_us (2), total_energy (3) and total_distance (4), each
    /// Quantity nil when absent.
    private static func directWorkout(
        _ bytes: UnsafeBufferPointer<UInt8>, strings: inout DirectSampleStrings
    ) -> WorkoutDetails? {
        var reader = DirectReader(bytes)
        var workout = WorkoutDetails(activityType: "", durationMicros: 0)
        var seen: UInt8 = 0
        while !reader.isAtEnd {
            switch reader.byte() {
            case 0x0A:
                guard seen & 1 == 0, let body = reader.lengthDelimited() else { return nil }
                seen |= 1
                workout.activityType = strings.activityType(body)
            case 0x10:
                guard seen & 2 == 0, let raw = reader.varint() else { return nil }
                seen |= 2
                workout.durationMicros = Int64(bitPattern: raw)
            case 0x1A:
                guard seen & 4 == 0, let body = reader.lengthDelimited(),
                    let energy = directQuantity(body, strings: &strings)
                else { return nil }
                seen |= 4
                workout.totalEnergy = energy
            case 0x22:
                guard seen & 8 == 0, let body = reader.lengthDelimited(),
                    let distance = directQuantity(body, strings: &strings)
                else { return nil }
                seen |= 8
                workout.totalDistance = distance
            default:
                return nil
            }
        }
        return workout
    }

    /// MetadataEntry: key (1), value (2); stored into `metadata` (replacing an earlier equal key).
    @inline(__always)
    private static func directMetadataEntry(
        _ bytes: UnsafeBufferPointer<UInt8>, into metadata: inout [String: String], strings: inout DirectSampleStrings
    ) -> Bool {
        var reader = DirectReader(bytes)
        var key = ""
        var value = ""
        var seen: UInt8 = 0
        while !reader.isAtEnd {
            switch reader.byte() {
            case 0x0A:
                guard seen & 1 == 0, let body = reader.lengthDelimited() else { return false }
                seen |= 1
                key = strings.metadataKey(body)
            case 0x12:
                guard seen & 2 == 0, let body = reader.lengthDelimited() else { return false }
                seen |= 2
                value = fieldString(body)
            default:
                return false
            }
        }
        metadata[key] = value
        return true
    }

    /// A string field as `string(_:)` reads protobuf-c's copy: up to its first NUL, invalid UTF-8 repaired.
    @inline(__always)
    static func fieldString(_ field: UnsafeBufferPointer<UInt8>) -> String {
        let text = cStringBytes(field)
        return text.isEmpty ? "" : String(decoding: text, as: UTF8.self)
    }

    /// A sample with every field absent (and a value case to be set): what decoding starts from.
    private static let blankSample = Sample(
        uuid: "", type: ObjectType(""), startMicros: 0, endMicros: 0, value: .category(0))
}
