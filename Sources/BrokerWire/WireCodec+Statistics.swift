import BrokerModel
import HealthBrokerProto

// Statistics: the request, its interval enum, and the result's buckets, in both directions.
extension WireCodec {
    /// Runs `body` with the C form of a Statistics request, valid only inside `body`; the predicate
    /// is always sent and option bits go as they are.
    static func withCStatisticsRequest<R>(
        _ query: StatisticsQuery, _ body: (UnsafeMutablePointer<Healthbroker__V1__StatisticsRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__StatisticsRequest()
        healthbroker__v1__statistics_request__init(&message)
        message.options = query.options.rawValue
        message.interval = cStatisticsInterval(query.interval)
        message.anchor_us = query.anchorMicros
        var predicate = cSamplePredicate(query.predicate)
        return query.type.identifier.withCString { type in
            query.timeZone.withCString { timeZone in
                query.unit.withCString { unit in
                    withUnsafeMutablePointer(to: &predicate) { predicate in
                        message.type = field(type)
                        message.time_zone = field(timeZone)
                        message.unit = field(unit)
                        message.predicate = predicate
                        return withUnsafeMutablePointer(to: &message, body)
                    }
                }
            }
        }
    }

    /// The Swift form of an unpacked Statistics request; an absent predicate matches everything and
    /// option bits this build does not know are kept.
    static func statisticsQuery(_ message: UnsafePointer<Healthbroker__V1__StatisticsRequest>) -> StatisticsQuery {
        StatisticsQuery(
            type: objectType(message.pointee.type),
            predicate: samplePredicate(message.pointee.predicate.map { UnsafePointer($0) }),
            options: StatisticsOptions(rawValue: message.pointee.options),
            interval: statisticsInterval(message.pointee.interval),
            anchorMicros: message.pointee.anchor_us,
            timeZone: string(message.pointee.time_zone),
            unit: string(message.pointee.unit))
    }

    /// Runs `body` with the C form of a Statistics response, valid only inside `body`.
    ///
    /// The buckets' structs and pointers live in two scoped scratch buffers; a nil statistic is its
    /// `has_…` flag false (and 0).
    static func withCStatisticsResponse<R>(
        _ result: StatisticsResult, _ body: (UnsafeMutablePointer<Healthbroker__V1__StatisticsResponse>) -> R
    ) -> R {
        withCMessages(
            result.buckets,
            textBytes: { _ in 0 },
            initialize: healthbroker__v1__statistics_bucket__init,
            fill: { bucket, message, _ in
                message.pointee.start_us = bucket.startMicros
                message.pointee.end_us = bucket.endMicros
                message.pointee.sample_count = bucket.sampleCount
                message.pointee.has_sum = bucket.sum == nil ? 0 : 1
                message.pointee.sum = bucket.sum ?? 0
                message.pointee.has_average = bucket.average == nil ? 0 : 1
                message.pointee.average = bucket.average ?? 0
                message.pointee.has_minimum = bucket.minimum == nil ? 0 : 1
                message.pointee.minimum = bucket.minimum ?? 0
                message.pointee.has_maximum = bucket.maximum == nil ? 0 : 1
                message.pointee.maximum = bucket.maximum ?? 0
            }
        ) { buckets, count in
            result.unit.withCString { unit in
                var message = Healthbroker__V1__StatisticsResponse()
                healthbroker__v1__statistics_response__init(&message)
                message.unit = field(unit)
                message.n_buckets = count
                message.buckets = buckets
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked Statistics response.
    static func statisticsResult(
        _ message: UnsafePointer<Healthbroker__V1__StatisticsResponse>
    ) throws(BrokerError) -> StatisticsResult {
        StatisticsResult(
            unit: string(message.pointee.unit),
            buckets: try decodedList(message.pointee.buckets, count: message.pointee.n_buckets, in: "ServerFrame") {
                bucket in
                StatisticsBucket(
                    startMicros: bucket.pointee.start_us,
                    endMicros: bucket.pointee.end_us,
                    sampleCount: bucket.pointee.sample_count,
                    sum: bucket.pointee.has_sum != 0 ? bucket.pointee.sum : nil,
                    average: bucket.pointee.has_average != 0 ? bucket.pointee.average : nil,
                    minimum: bucket.pointee.has_minimum != 0 ? bucket.pointee.minimum : nil,
                    maximum: bucket.pointee.has_maximum != 0 ? bucket.pointee.maximum : nil)
            })
    }

    /// The wire form of a statistics interval.
    @inline(__always)
    static func cStatisticsInterval(_ interval: StatisticsInterval) -> Healthbroker__V1__StatisticsInterval {
        Healthbroker__V1__StatisticsInterval(rawValue: .init(truncatingIfNeeded: interval.rawValue))
    }

    /// A decoded statistics interval; numbers this build does not know become `.none`.
    @inline(__always)
    static func statisticsInterval(_ interval: Healthbroker__V1__StatisticsInterval) -> StatisticsInterval {
        StatisticsInterval(rawValue: wireInt32(interval.rawValue)) ?? .none
    }
}
