public import BrokerModel

// Statistics: the query and its result between the model and the .proto.
extension StatisticsQuery {
    /// The query a decoded StatisticsRequest holds; an interval number this build does not know is
    /// `.none`.
    public init(proto: Proto.StatisticsRequest) {
        self.init(
            type: ObjectType(protoIdentifier: proto.type),
            predicate: SamplePredicate(proto: proto.predicate),
            options: StatisticsOptions(rawValue: proto.options),
            interval: StatisticsInterval(rawValue: proto.interval.rawValue) ?? .none,
            anchorMicros: proto.anchorMicros,
            timeZone: proto.timeZone,
            unit: proto.unit)
    }

    /// The query as a .proto message; the predicate is always sent.
    package var proto: Proto.StatisticsRequest {
        var message = Proto.StatisticsRequest()
        message.type = type.identifier
        message.predicate = predicate.proto
        message.options = options.rawValue
        message.interval = Proto.StatisticsInterval(rawValue: interval.rawValue)
        message.anchorMicros = anchorMicros
        message.timeZone = timeZone
        message.unit = unit
        return message
    }
}

extension StatisticsResult {
    /// The result a decoded AdminStatisticsResponse holds (the same fields as StatisticsResponse).
    package init(proto: Proto.AdminStatisticsResponse) {
        var same = Proto.StatisticsResponse()
        same.unit = proto.unit
        same.buckets = proto.buckets
        self.init(proto: same)
    }

    /// The result as an AdminStatisticsResponse.
    package var adminProto: Proto.AdminStatisticsResponse {
        let same = proto
        var message = Proto.AdminStatisticsResponse()
        message.unit = same.unit
        message.buckets = same.buckets
        return message
    }

    /// The result a decoded StatisticsResponse holds; a value whose `has_…` is false is nil.
    package init(proto: Proto.StatisticsResponse) {
        var buckets: [StatisticsBucket] = []
        buckets.reserveCapacity(proto.buckets.count)
        for bucket in proto.buckets {
            buckets.append(StatisticsBucket(
                startMicros: bucket.startMicros,
                endMicros: bucket.endMicros,
                sampleCount: bucket.sampleCount,
                sum: bucket.hasSum ? bucket.sum : nil,
                average: bucket.hasAverage ? bucket.average : nil,
                minimum: bucket.hasMinimum ? bucket.minimum : nil,
                maximum: bucket.hasMaximum ? bucket.maximum : nil))
        }
        self.init(unit: proto.unit, buckets: buckets)
    }

    /// The result as a .proto message: a nil value is `has_…` false (and 0).
    package var proto: Proto.StatisticsResponse {
        var message = Proto.StatisticsResponse()
        message.unit = unit
        message.buckets.reserveCapacity(buckets.count)
        for bucket in buckets {
            var entry = Proto.StatisticsBucket()
            entry.startMicros = bucket.startMicros
            entry.endMicros = bucket.endMicros
            entry.sampleCount = bucket.sampleCount
            entry.hasSum = bucket.sum != nil
            entry.sum = bucket.sum ?? 0
            entry.hasAverage = bucket.average != nil
            entry.average = bucket.average ?? 0
            entry.hasMinimum = bucket.minimum != nil
            entry.minimum = bucket.minimum ?? 0
            entry.hasMaximum = bucket.maximum != nil
            entry.maximum = bucket.maximum ?? 0
            message.buckets.append(entry)
        }
        return message
    }
}
