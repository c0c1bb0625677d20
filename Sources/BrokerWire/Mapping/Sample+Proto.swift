public import BrokerModel

// Sample, with its value (Quantity, WorkoutDetails) and metadata, between the model and the .proto.
extension Sample {
    /// The sample a decoded Sample holds; throws for one without a value kind this build knows.
    ///
    /// A key sent twice in the metadata keeps its last value.
    public init(proto: Proto.Sample) throws(BrokerError) {
        guard let value = proto.value else { throw .invalidArgument("value: missing") }
        var metadata: [String: String] = [:]
        if !proto.metadata.isEmpty {
            metadata.reserveCapacity(proto.metadata.count)
            for entry in proto.metadata { metadata[entry.key] = entry.value }
        }
        self.init(
            uuid: proto.uuid,
            type: ObjectType(protoIdentifier: proto.type),
            startMicros: proto.startMicros,
            endMicros: proto.endMicros,
            value: SampleValue(proto: value),
            metadata: metadata,
            sourceAppID: proto.sourceAppID,
            createdMicros: proto.createdMicros)
    }

    /// The sample as a .proto message. Metadata goes out sorted by key (strcmp order of the bytes
    /// sent), so equal samples encode to equal bytes whatever their dictionaries' order.
    public var proto: Proto.Sample {
        var message = Proto.Sample()
        message.uuid = uuid
        message.type = type.identifier
        message.startMicros = startMicros
        message.endMicros = endMicros
        if !metadata.isEmpty {
            var entries: [Proto.MetadataEntry] = []
            entries.reserveCapacity(metadata.count)
            for (key, value) in metadata {
                var entry = Proto.MetadataEntry()
                entry.key = key
                entry.value = value
                entries.append(entry)
            }
            if entries.count > 1 { entries.sort { $0.key.precedesAsCString($1.key) } }
            message.metadata = entries
        }
        message.sourceAppID = sourceAppID
        message.createdMicros = createdMicros
        message.value = value.proto
        return message
    }

    /// The samples of a decoded repeated Sample field.
    public static func samples(proto: [Proto.Sample]) throws(BrokerError) -> [Sample] {
        guard !proto.isEmpty else { return [] }
        var samples: [Sample] = []
        samples.reserveCapacity(proto.count)
        for message in proto { samples.append(try Sample(proto: message)) }
        return samples
    }

    /// A correlation's decoded members. A member without a value kind this build knows keeps an
    /// empty correlation as its value, which validation refuses as a member (it is not a quantity).
    package static func members(proto: [Proto.Sample]) -> [Sample] {
        proto.map { message in
            (try? Sample(proto: message))
                ?? Sample(uuid: message.uuid, type: ObjectType(protoIdentifier: message.type), startMicros: message.startMicros,
                          endMicros: message.endMicros, value: .correlation([]))
        }
    }

    /// `samples` as a repeated Sample field.
    package static func proto(_ samples: [Sample]) -> [Proto.Sample] {
        guard !samples.isEmpty else { return [] }
        var messages: [Proto.Sample] = []
        messages.reserveCapacity(samples.count)
        for sample in samples { messages.append(sample.proto) }
        return messages
    }

    /// INVALID_ARGUMENT naming `samples[i]` for the first of a request's decoded samples without a
    /// value kind this build knows; nil when each has one.
    ///
    /// Such a sample is well-formed protobuf, so it is the call's error, not the connection's. A
    /// value kind added by a newer client reaches protobuf-c as an unknown field (the value stays
    /// unset): the message names its field number, so the sender can tell the two cases apart.
    public static func valueError(in samples: [Proto.Sample]) -> BrokerError? {
        valueError(in: samples, field: "samples")
    }

    /// `valueError(in:)` for a repeated field named `field`; a correlation's objects are checked too (as "objects[j]").
    private static func valueError(in samples: [Proto.Sample], field name: String) -> BrokerError? {
        for (index, sample) in samples.enumerated() {
            switch sample.value {
            case .correlation(let correlation):
                if let error = valueError(in: correlation.objects, field: "objects") {
                    return .invalidArgument("\(name)[\(index)]: \(error.message)")
                }
            case nil:
                if let field = sample.unknownFieldNumbers?.first {
                    return .invalidArgument(
                        "\(name)[\(index)]: value: field \(field) is a value kind this broker does not know; "
                            + "it takes quantity, category_value, workout or correlation")
                }
                return .invalidArgument("\(name)[\(index)]: value: missing; set quantity, category_value, workout or correlation")
            default:
                continue
            }
        }
        return nil
    }
}

extension SampleValue {
    /// The value a decoded Sample's value case holds.
    @inline(__always)
    package init(proto: Proto.Sample.Value) {
        switch proto {
        case .quantity(let quantity): self = .quantity(Quantity(proto: quantity))
        case .categoryValue(let value): self = .category(value)
        case .workout(let workout): self = .workout(WorkoutDetails(proto: workout))
        case .correlation(let correlation): self = .correlation(Sample.members(proto: correlation.objects))
        }
    }

    /// The value as a Sample's value case.
    @inline(__always)
    package var proto: Proto.Sample.Value {
        switch self {
        case .quantity(let quantity): .quantity(quantity.proto)
        case .category(let value): .categoryValue(value)
        case .workout(let details): .workout(details.proto)
        case .correlation(let members):
            .correlation({
                var message = Proto.Correlation()
                message.objects = Sample.proto(members)
                return message
            }())
        }
    }
}

extension Quantity {
    /// The quantity a decoded Quantity holds.
    @inline(__always)
    package init(proto: Proto.Quantity) {
        self.init(proto.value, proto.unit)
    }

    /// The quantity as a .proto message.
    @inline(__always)
    package var proto: Proto.Quantity {
        var message = Proto.Quantity()
        message.value = value
        message.unit = unit
        return message
    }
}

extension WorkoutDetails {
    /// The details a decoded Workout holds; absent energy or distance read as nil.
    package init(proto: Proto.Workout) {
        self.init(
            activityType: proto.activityType,
            durationMicros: proto.durationMicros,
            totalEnergy: proto.totalEnergy.map { Quantity(proto: $0) },
            totalDistance: proto.totalDistance.map { Quantity(proto: $0) })
    }

    /// The details as a .proto message; nil energy or distance are left out.
    package var proto: Proto.Workout {
        var message = Proto.Workout()
        message.activityType = activityType
        message.durationMicros = durationMicros
        message.totalEnergy = totalEnergy?.proto
        message.totalDistance = totalDistance?.proto
        return message
    }
}
