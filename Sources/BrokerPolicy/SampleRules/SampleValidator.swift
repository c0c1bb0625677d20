public import BrokerModel

/// Checks samples before they are saved and converts stored samples for presentation.
public enum SampleValidator {
    /// The most samples one save may carry.
    public static let maxBatch = 10_000
    /// The most metadata entries one sample may carry.
    public static let maxMetadataEntries = 64
    /// The longest metadata key, in UTF-8 bytes.
    public static let maxMetadataKeyBytes = 128
    /// The longest metadata value, in UTF-8 bytes.
    public static let maxMetadataValueBytes = 1_024
    /// The largest category value any catalogued type has; a save checks the value against its type's own set.
    public static let maxCategoryValue = 1_000
    /// The most objects one correlation may hold (a food correlation may hold every dietary type).
    public static let maxCorrelationObjects = 64

    /// Validates a batch and returns it normalised: quantities (and workout energy/distance) converted to canonical units, uuid lower-cased, sourceAppID/createdMicros cleared.
    ///
    /// Every error is INVALID_ARGUMENT; each one about a sample starts with "samples[INDEX]: ". Messages
    /// never repeat a sample's value or metadata value.
    public static func validate(_ samples: [Sample], earliestPermitted: Int64) throws(BrokerError) -> [Sample] {
        if samples.isEmpty { throw .invalidArgument("samples: the batch is empty") }
        let total = samples.reduce(0) { count, sample in
            if case .correlation(let members) = sample.value { count + 1 + members.count } else { count + 1 }
        }
        if total > maxBatch {
            throw .invalidArgument("samples: \(total) samples in one batch (correlation members included); at most \(maxBatch)")
        }
        var firstIndex: [String: Int] = [:]
        firstIndex.reserveCapacity(samples.count)
        var normalised: [Sample] = []
        normalised.reserveCapacity(samples.count)
        for (index, sample) in samples.enumerated() {
            do throws(BrokerError) {
                var checked = try normalise(sample, earliestPermitted: earliestPermitted)
                if let earlier = firstIndex.updateValue(index, forKey: checked.uuid) {
                    throw .invalidArgument("duplicate uuid \"\(checked.uuid)\" (also samples[\(earlier)])")
                }
                if case .correlation(let members) = checked.value {
                    for (position, member) in members.enumerated() {
                        if let earlier = firstIndex.updateValue(index, forKey: member.uuid) {
                            throw .invalidArgument("objects[\(position)]: duplicate uuid \"\(member.uuid)\" (also samples[\(earlier)])")
                        }
                    }
                }
                checked.sourceAppID = ""
                checked.createdMicros = 0
                normalised.append(checked)
            } catch {
                throw .invalidArgument("samples[\(index)]: \(error.message)")
            }
        }
        return normalised
    }

    /// Converts a stored (canonical) sample's quantities to `unit` (quantity types only; "" = canonical).
    ///
    /// Category and workout samples come back unchanged.
    public static func presenting(_ sample: Sample, in unit: String, dimension: UnitDimension) throws(BrokerError) -> Sample {
        guard case .quantity(let quantity) = sample.value else { return sample }
        let target = try UnitConverter(unit.isEmpty ? dimension.canonicalUnit : unit, dimension: dimension)
        if quantity.unit == target.unit { return sample }
        let canonical = try UnitConverter(quantity.unit, dimension: dimension).toCanonical(quantity.value)
        var presented = sample
        presented.value = .quantity(Quantity(target.fromCanonical(canonical), target.unit))
        return presented
    }

    /// Converts a stored sample of `descriptor`'s type to `converter`'s unit (`Units.resultConverter`).
    ///
    /// Category and workout samples come back unchanged; a quantity stored in a unit other than
    /// the canonical one (none is, today) is converted from that unit.
    public static func presenting(_ sample: Sample, with converter: UnitConverter, descriptor: TypeDescriptor) throws(BrokerError) -> Sample {
        guard case .quantity(let quantity) = sample.value else { return sample }
        if quantity.unit == converter.unit { return sample }
        let canonical = quantity.unit == converter.canonicalUnit
            ? quantity.value : try UnitConverter(quantity.unit, for: descriptor).toCanonical(quantity.value)
        var presented = sample
        presented.value = .quantity(Quantity(converter.fromCanonical(canonical), converter.unit))
        return presented
    }

    /// One sample checked and normalised (uuid lower-cased, values canonical); errors carry no index yet.
    static func normalise(_ sample: Sample, earliestPermitted: Int64) throws(BrokerError) -> Sample {
        var result = sample
        result.uuid = try canonicalUUID(sample.uuid)
        let descriptor = try saveableDescriptor(sample.type)
        if sample.startMicros > sample.endMicros { throw .invalidArgument("start is after end") }
        if sample.startMicros < earliestPermitted {
            throw .invalidArgument("starts before the earliest permitted date \(ISODate.format(earliestPermitted))")
        }
        if descriptor.kind == .correlation {
            result.value = try normalisedCorrelation(sample, descriptor: descriptor, earliestPermitted: earliestPermitted)
        } else {
            result.value = try normalisedValue(sample, descriptor: descriptor)
        }
        try checkMetadata(sample.metadata)
        return result
    }

    /// The descriptor of a type a sample may be saved as: known and not a characteristic.
    static func saveableDescriptor(_ type: ObjectType) throws(BrokerError) -> TypeDescriptor {
        guard let descriptor = TypeCatalogue.descriptor(for: type) else {
            throw .invalidArgument("unknown type \"\(MessageText.clipped(type.identifier))\"")
        }
        if descriptor.isCharacteristic {
            throw .invalidArgument("\(type.identifier) is a characteristic type and cannot be saved")
        }
        return descriptor
    }
}
