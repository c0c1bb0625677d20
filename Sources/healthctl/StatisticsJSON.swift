import BrokerModel

/// A statistics result as a JSON object: the type with its alias, the unit, and each bucket with
/// its instants as ISO-8601 UTC plus `_us`, its sample count, and the values it has.
struct StatisticsJSON: Encodable {
    /// The type asked about.
    var type: ObjectType
    /// The broker's answer.
    var result: StatisticsResult

    private enum CodingKeys: String, CodingKey {
        case type, alias, unit, buckets
    }

    private enum BucketKeys: String, CodingKey {
        case start, startMicros = "start_us", end, endMicros = "end_us", sampleCount = "sample_count"
        case sum, average, minimum, maximum
    }

    /// Writes every key; a value the bucket does not have is left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type.identifier, forKey: .type)
        try container.encode(TypeArgument.alias(of: type), forKey: .alias)
        try container.encode(result.unit, forKey: .unit)
        var buckets = container.nestedUnkeyedContainer(forKey: .buckets)
        for bucket in result.buckets {
            var object = buckets.nestedContainer(keyedBy: BucketKeys.self)
            try object.encode(UTCTimestamp.string(micros: bucket.startMicros), forKey: .start)
            try object.encode(bucket.startMicros, forKey: .startMicros)
            try object.encode(UTCTimestamp.string(micros: bucket.endMicros), forKey: .end)
            try object.encode(bucket.endMicros, forKey: .endMicros)
            try object.encode(bucket.sampleCount, forKey: .sampleCount)
            try object.encodeIfPresent(bucket.sum, forKey: .sum)
            try object.encodeIfPresent(bucket.average, forKey: .average)
            try object.encodeIfPresent(bucket.minimum, forKey: .minimum)
            try object.encodeIfPresent(bucket.maximum, forKey: .maximum)
        }
    }
}
