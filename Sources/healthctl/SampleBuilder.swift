import BrokerModel
import BrokerPolicy

/// Turns the fields of one input line into a checked `Sample`, with the broker's own validation rules.
enum SampleBuilder {
    /// The sample `fields` describe; its UUID is derived from its content when the line gave none.
    ///
    /// Checks what the broker checks (type, value kind, units, dates, metadata sizes) except the
    /// store-wide earliest permitted date, which only the broker knows.
    static func sample(from fields: SampleFields) throws(SampleLineError) -> Sample {
        guard let type = TypeArgument.lookUp(fields.type) else {
            let similar = TypeArgument.suggestions(for: fields.type)
            let hint = similar.isEmpty ? "" : " (did you mean \(similar.joined(separator: ", "))?)"
            throw SampleLineError("unknown type '\(fields.type)'\(hint)")
        }
        guard let descriptor = TypeCatalogue.descriptor(for: type), !descriptor.isCharacteristic else {
            throw SampleLineError("\(TypeArgument.alias(of: type)) is a characteristic, not a sample type")
        }
        var sample = Sample(
            uuid: "", type: type, startMicros: fields.startMicros, endMicros: fields.endMicros,
            value: try value(fields, descriptor: descriptor), metadata: fields.metadata)
        sample.uuid = fields.uuid ?? SampleUUID.derived(from: sample)
        try check(sample)
        // After the UUID: a derived UUID depends on the content, not on who saved it.
        sample.sourceAppID = fields.source ?? ""
        return sample
    }

    /// The sample's value, after checking the line gave the kind of value its type holds.
    static func value(_ fields: SampleFields, descriptor: TypeDescriptor) throws(SampleLineError) -> SampleValue {
        let alias = TypeArgument.alias(of: descriptor.type)
        switch (descriptor.kind, fields.value) {
        case (.quantity, .quantity(let number, let unit)):
            return .quantity(Quantity(number, unit ?? descriptor.canonicalUnit))
        case (.category, .category(let number)):
            return .category(number)
        case (.workout, .workout(let activity, let seconds, let energy, let distance)):
            let duration = seconds.map { ($0 * 1e6).rounded() } ?? Double(fields.endMicros) - Double(fields.startMicros)
            guard duration.isFinite, abs(duration) < 9e18 else {
                throw SampleLineError("workout duration_s is out of range")
            }
            return .workout(WorkoutDetails(
                activityType: activity, durationMicros: Int64(duration),
                totalEnergy: energy.map { Quantity($0, "kcal") }, totalDistance: distance.map { Quantity($0, "m") }))
        case (.correlation, .correlation(let objects)):
            var samples: [Sample] = []
            for (index, object) in objects.enumerated() {
                do throws(SampleLineError) {
                    var sample = try sample(from: object)
                    // The correlation's source is the one that counts (an object names the same).
                    sample.sourceAppID = ""
                    samples.append(sample)
                } catch {
                    throw SampleLineError("objects[\(index)]: \(error.message)")
                }
            }
            return .correlation(samples)
        case (.quantity, _):
            throw SampleLineError("\(alias) is a quantity type: give \"value\" (and \"unit\")")
        case (.category, _):
            throw SampleLineError("\(alias) is a category type: give \"category\" (an integer)")
        case (.workout, _):
            throw SampleLineError("\(alias) is the workout type: give \"workout\" {\"activity\": …}")
        case (.characteristic, _):
            throw SampleLineError("\(alias) is a characteristic, not a sample type")
        case (.correlation, _):
            throw SampleLineError("\(alias) is a correlation type: give \"objects\" (its member types' samples)")
        }
    }

    /// Runs the broker's validation on the one sample; its message loses the `samples[0]: ` prefix.
    static func check(_ sample: Sample) throws(SampleLineError) {
        do throws(BrokerError) {
            _ = try SampleValidator.validate([sample], earliestPermitted: .min)
        } catch {
            let prefix = "samples[0]: "
            let message = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
            throw SampleLineError(message)
        }
    }
}
