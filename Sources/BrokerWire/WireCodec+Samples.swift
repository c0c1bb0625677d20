#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BrokerModel
import HealthBrokerProto

// Sample (with its Quantity, Workout and MetadataEntry parts) in both directions, and repeated
// Sample fields (Save, AdminImport, SamplePage, AnchoredPage), which can hold thousands of samples.
extension WireCodec {
    /// A C array of pointers to samples: a repeated Sample field.
    typealias CSampleList = UnsafeMutablePointer<UnsafeMutablePointer<Healthbroker__V1__Sample>?>

    /// Runs `body` with C forms of `samples` and an array of pointers to them, valid only inside `body`.
    ///
    /// Nothing is allocated per sample: a first pass sizes everything (`SampleListLayout`), then three
    /// scoped scratch buffers hold every string, every C struct (samples, workouts, quantities and
    /// metadata entries, each kind in its own region) and every pointer (the samples', then each
    /// sample's metadata entries). Metadata goes out sorted by key (UTF-8 byte order), so equal
    /// samples encode to equal bytes whatever their dictionaries' order.
    static func withCSamples<R>(_ samples: [Sample], _ body: (CSampleList, Int) -> R) -> R {
        let layout = SampleListLayout(samples)
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(layout.textBytes, 1)) { text in
            withUnsafeTemporaryAllocation(byteCount: max(layout.structBytes, 1), alignment: layout.structAlignment) {
                structs in
                withUnsafeTemporaryAllocation(
                    byteCount: max(layout.pointerBytes, 1), alignment: MemoryLayout<UnsafeRawPointer>.alignment
                ) { pointers in
                    var writer = CStringWriter(text)
                    var filler = SampleListFiller(
                        layout: layout, structs: structs.baseAddress.unsafelyUnwrapped,
                        pointers: pointers.baseAddress.unsafelyUnwrapped)
                    for sample in samples { filler.append(sample, writer: &writer) }
                    // Every struct is trivial (C data and pointers): nothing to deinitialize.
                    return body(filler.samplePointers, samples.count)
                }
            }
        }
    }

    /// The Swift form of an unpacked Sample; a sample with no value case this build knows (or a
    /// missing value sub-message, or a NULL metadata entry) is undecodable as `typeName`.
    static func sample(
        _ message: UnsafePointer<Healthbroker__V1__Sample>, in typeName: StaticString
    ) throws(BrokerError) -> Sample {
        let value: SampleValue
        switch message.pointee.value_case {
        case HEALTHBROKER__V1__SAMPLE__VALUE_QUANTITY:
            value = .quantity(quantity(try present(message.pointee.quantity, in: typeName)))
        case HEALTHBROKER__V1__SAMPLE__VALUE_CATEGORY_VALUE:
            value = .category(message.pointee.category_value)
        case HEALTHBROKER__V1__SAMPLE__VALUE_WORKOUT:
            value = .workout(workoutDetails(try present(message.pointee.workout, in: typeName)))
        default:
            throw undecodable(typeName)
        }
        return Sample(
            uuid: string(message.pointee.uuid),
            type: objectType(message.pointee.type),
            startMicros: message.pointee.start_us,
            endMicros: message.pointee.end_us,
            value: value,
            metadata: try metadata(message.pointee.metadata, count: message.pointee.n_metadata, in: typeName),
            sourceAppID: string(message.pointee.source_app_id),
            createdMicros: message.pointee.created_us)
    }

    /// INVALID_ARGUMENT naming `samples[i]` for the first sample of a request's unpacked repeated
    /// Sample field that has no value case this build knows; nil when each has one (or the list is
    /// malformed, which `samples(_:count:in:)` reports as undecodable).
    ///
    /// Such a sample is well-formed protobuf, so it is the call's error, not the connection's. A value
    /// kind added by a newer client reaches protobuf-c as an unknown field (the value case stays
    /// unset): the message names its field number, so the sender can tell the two cases apart.
    static func sampleValueError(_ list: CSampleList?, count: Int) -> BrokerError? {
        guard count > 0, let list else { return nil }
        for index in 0..<count {
            guard let element = list[index] else { return nil }
            switch element.pointee.value_case {
            case HEALTHBROKER__V1__SAMPLE__VALUE_QUANTITY, HEALTHBROKER__V1__SAMPLE__VALUE_CATEGORY_VALUE,
                HEALTHBROKER__V1__SAMPLE__VALUE_WORKOUT:
                continue
            default:
                let base = element.pointee.base
                if base.n_unknown_fields > 0, let unknown = base.unknown_fields {
                    return .invalidArgument(
                        "samples[\(index)]: value: field \(unknown[0].tag) is a value kind this broker does not know; "
                            + "it takes quantity, category_value or workout")
                }
                return .invalidArgument("samples[\(index)]: value: missing; set quantity, category_value or workout")
            }
        }
        return nil
    }

    /// The Swift forms of an unpacked repeated Sample field; throws on a NULL or undecodable element.
    static func samples(
        _ list: CSampleList?, count: Int, in typeName: StaticString
    ) throws(BrokerError) -> [Sample] {
        guard count > 0 else { return [] }
        guard let list else { throw undecodable(typeName) }
        var result: [Sample] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let element = list[index] else { throw undecodable(typeName) }
            result.append(try sample(element, in: typeName))
        }
        return result
    }

    /// The Swift form of an unpacked Quantity.
    @inline(__always)
    static func quantity(_ message: UnsafePointer<Healthbroker__V1__Quantity>) -> Quantity {
        Quantity(message.pointee.value, string(message.pointee.unit))
    }

    /// The Swift form of an unpacked Workout; absent energy or distance sub-messages read as nil.
    static func workoutDetails(_ message: UnsafePointer<Healthbroker__V1__Workout>) -> WorkoutDetails {
        WorkoutDetails(
            activityType: string(message.pointee.activity_type),
            durationMicros: message.pointee.duration_us,
            totalEnergy: message.pointee.total_energy.map { quantity(UnsafePointer($0)) },
            totalDistance: message.pointee.total_distance.map { quantity(UnsafePointer($0)) })
    }

    /// The dictionary form of an unpacked repeated MetadataEntry field; a key sent twice keeps its
    /// last value.
    static func metadata(
        _ entries: UnsafeMutablePointer<UnsafeMutablePointer<Healthbroker__V1__MetadataEntry>?>?, count: Int,
        in typeName: StaticString
    ) throws(BrokerError) -> [String: String] {
        guard count > 0 else { return [:] }
        guard let entries else { throw undecodable(typeName) }
        var result: [String: String] = Dictionary(minimumCapacity: count)
        for index in 0..<count {
            guard let entry = entries[index] else { throw undecodable(typeName) }
            result[string(entry.pointee.key)] = string(entry.pointee.value)
        }
        return result
    }
}

/// How much of each kind of C struct, pointer and text a list of samples needs; and where each kind
/// lives in the one struct buffer `WireCodec.withCSamples` allocates.
struct SampleListLayout {
    /// Samples in the list.
    private(set) var sampleCount = 0
    /// Workout values.
    private(set) var workoutCount = 0
    /// Quantities: quantity values plus workouts' energy and distance.
    private(set) var quantityCount = 0
    /// Metadata entries over all samples.
    private(set) var entryCount = 0
    /// Bytes of every string, terminators included.
    private(set) var textBytes = 0

    /// Sizes `samples`.
    init(_ samples: [Sample]) {
        sampleCount = samples.count
        for sample in samples {
            textBytes += CStringWriter.byteCount(of: sample.uuid) + CStringWriter.byteCount(of: sample.type.identifier)
                + CStringWriter.byteCount(of: sample.sourceAppID)
            switch sample.value {
            case .quantity(let quantity):
                quantityCount += 1
                textBytes += CStringWriter.byteCount(of: quantity.unit)
            case .category:
                break
            case .workout(let workout):
                workoutCount += 1
                textBytes += CStringWriter.byteCount(of: workout.activityType)
                if let energy = workout.totalEnergy {
                    quantityCount += 1
                    textBytes += CStringWriter.byteCount(of: energy.unit)
                }
                if let distance = workout.totalDistance {
                    quantityCount += 1
                    textBytes += CStringWriter.byteCount(of: distance.unit)
                }
            }
            entryCount += sample.metadata.count
            for (key, value) in sample.metadata {
                textBytes += CStringWriter.byteCount(of: key) + CStringWriter.byteCount(of: value)
            }
        }
    }

    /// The alignment of the struct buffer: the strictest of the four struct kinds.
    var structAlignment: Int {
        max(
            MemoryLayout<Healthbroker__V1__Sample>.alignment, MemoryLayout<Healthbroker__V1__Workout>.alignment,
            MemoryLayout<Healthbroker__V1__Quantity>.alignment, MemoryLayout<Healthbroker__V1__MetadataEntry>.alignment)
    }

    /// Where the workouts start in the struct buffer (the samples come first).
    var workoutOffset: Int {
        Self.aligned(sampleCount * MemoryLayout<Healthbroker__V1__Sample>.stride, Healthbroker__V1__Workout.self)
    }

    /// Where the quantities start in the struct buffer.
    var quantityOffset: Int {
        Self.aligned(
            workoutOffset + workoutCount * MemoryLayout<Healthbroker__V1__Workout>.stride, Healthbroker__V1__Quantity.self)
    }

    /// Where the metadata entries start in the struct buffer.
    var entryOffset: Int {
        Self.aligned(
            quantityOffset + quantityCount * MemoryLayout<Healthbroker__V1__Quantity>.stride,
            Healthbroker__V1__MetadataEntry.self)
    }

    /// The size of the struct buffer.
    var structBytes: Int {
        entryOffset + entryCount * MemoryLayout<Healthbroker__V1__MetadataEntry>.stride
    }

    /// The size of the pointer buffer: one pointer per sample, then one per metadata entry.
    var pointerBytes: Int {
        (sampleCount + entryCount) * MemoryLayout<UnsafeRawPointer>.stride
    }

    /// `offset` rounded up to the alignment of `type`.
    private static func aligned<T>(_ offset: Int, _ type: T.Type) -> Int {
        let alignment = MemoryLayout<T>.alignment
        return (offset + alignment - 1) / alignment * alignment
    }
}

/// Writes samples, one after another, into the regions of the buffers a `SampleListLayout` sized.
struct SampleListFiller {
    /// The samples' pointer array (the repeated field).
    let samplePointers: WireCodec.CSampleList
    private let samples: UnsafeMutablePointer<Healthbroker__V1__Sample>
    private let workouts: UnsafeMutablePointer<Healthbroker__V1__Workout>
    private let quantities: UnsafeMutablePointer<Healthbroker__V1__Quantity>
    private let entries: UnsafeMutablePointer<Healthbroker__V1__MetadataEntry>
    private let entryPointers: UnsafeMutablePointer<UnsafeMutablePointer<Healthbroker__V1__MetadataEntry>?>
    private var sampleIndex = 0
    private var workoutIndex = 0
    private var quantityIndex = 0
    private var entryIndex = 0

    /// A filler for the buffers `structs` and `pointers`, laid out (and sized) by `layout`.
    init(layout: SampleListLayout, structs: UnsafeMutableRawPointer, pointers: UnsafeMutableRawPointer) {
        samples = structs.bindMemory(to: Healthbroker__V1__Sample.self, capacity: layout.sampleCount)
        workouts = (structs + layout.workoutOffset).bindMemory(to: Healthbroker__V1__Workout.self, capacity: layout.workoutCount)
        quantities = (structs + layout.quantityOffset)
            .bindMemory(to: Healthbroker__V1__Quantity.self, capacity: layout.quantityCount)
        entries = (structs + layout.entryOffset)
            .bindMemory(to: Healthbroker__V1__MetadataEntry.self, capacity: layout.entryCount)
        samplePointers = pointers.bindMemory(
            to: UnsafeMutablePointer<Healthbroker__V1__Sample>?.self, capacity: layout.sampleCount)
        entryPointers = (pointers + layout.sampleCount * MemoryLayout<UnsafeRawPointer>.stride).bindMemory(
            to: UnsafeMutablePointer<Healthbroker__V1__MetadataEntry>?.self, capacity: layout.entryCount)
    }

    /// Fills the next sample struct (and its parts) from `sample` and points the next list slot at it.
    mutating func append(_ sample: Sample, writer: inout CStringWriter) {
        let message = samples + sampleIndex
        // The generated init assigns the whole (trivial) struct: it initializes the memory.
        healthbroker__v1__sample__init(message)
        message.pointee.uuid = writer.write(sample.uuid)
        message.pointee.type = writer.write(sample.type.identifier)
        message.pointee.start_us = sample.startMicros
        message.pointee.end_us = sample.endMicros
        message.pointee.source_app_id = writer.write(sample.sourceAppID)
        message.pointee.created_us = sample.createdMicros
        switch sample.value {
        case .quantity(let quantity):
            message.pointee.value_case = HEALTHBROKER__V1__SAMPLE__VALUE_QUANTITY
            message.pointee.quantity = nextQuantity(quantity, writer: &writer)
        case .category(let value):
            message.pointee.value_case = HEALTHBROKER__V1__SAMPLE__VALUE_CATEGORY_VALUE
            message.pointee.category_value = value
        case .workout(let details):
            let workout = workouts + workoutIndex
            workoutIndex += 1
            healthbroker__v1__workout__init(workout)
            workout.pointee.activity_type = writer.write(details.activityType)
            workout.pointee.duration_us = details.durationMicros
            if let energy = details.totalEnergy { workout.pointee.total_energy = nextQuantity(energy, writer: &writer) }
            if let distance = details.totalDistance {
                workout.pointee.total_distance = nextQuantity(distance, writer: &writer)
            }
            message.pointee.value_case = HEALTHBROKER__V1__SAMPLE__VALUE_WORKOUT
            message.pointee.workout = workout
        }
        let firstEntry = entryIndex
        for (key, value) in sample.metadata {
            let entry = entries + entryIndex
            healthbroker__v1__metadata_entry__init(entry)
            entry.pointee.key = writer.write(key)
            entry.pointee.value = writer.write(value)
            entryPointers[entryIndex] = entry
            entryIndex += 1
        }
        let entryCount = entryIndex - firstEntry
        if entryCount > 1 {
            // Sorts this sample's pointers in place (the stdlib sort allocates only past a few dozen).
            var sorted = UnsafeMutableBufferPointer(start: entryPointers + firstEntry, count: entryCount)
            sorted.sort { left, right in
                strcmp(left.unsafelyUnwrapped.pointee.key, right.unsafelyUnwrapped.pointee.key) < 0
            }
        }
        message.pointee.n_metadata = entryCount
        message.pointee.metadata = entryCount > 0 ? entryPointers + firstEntry : nil
        samplePointers[sampleIndex] = message
        sampleIndex += 1
    }

    /// Fills the next quantity struct from `quantity`; returns it.
    private mutating func nextQuantity(
        _ quantity: Quantity, writer: inout CStringWriter
    ) -> UnsafeMutablePointer<Healthbroker__V1__Quantity> {
        let message = quantities + quantityIndex
        quantityIndex += 1
        healthbroker__v1__quantity__init(message)
        message.pointee.value = quantity.value
        message.pointee.unit = writer.write(quantity.unit)
        return message
    }
}
