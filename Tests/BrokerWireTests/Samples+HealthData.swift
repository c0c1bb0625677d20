import BrokerModel
@testable import BrokerWire

/// Health samples, predicates, queries and statistics with non-trivial values for round-trip tests.
extension Samples {
    /// One sample of each value kind and workout shape, with awkward numbers, instants and metadata.
    static let healthSamples: [Sample] = [
        Sample(
            uuid: "6F9619FF-8B86-D011-B42D-00C04FC964FF", type: .heartRate, startMicros: 1_700_000_000_000_000,
            endMicros: 1_700_000_000_000_000, value: .quantity(Quantity(72, "count/min")),
            metadata: ["HKMetadataKeyHeartRateMotionContext": "1", "device": "Watch ⌚️", "note": unicode],
            sourceAppID: "com.example.心", createdMicros: 1_700_000_000_000_123),
        Sample(
            uuid: "u-neg", type: .bodyMass, startMicros: -86_400_000_000, endMicros: -1,
            value: .quantity(Quantity(-0.0, "kg"))),
        Sample(
            uuid: "u-huge", type: .stepCount, startMicros: Int64.min, endMicros: Int64.max,
            value: .quantity(Quantity(Double.greatestFiniteMagnitude, "count")), metadata: [:]),
        Sample(
            uuid: "u-tiny", type: .activeEnergyBurned, startMicros: 0, endMicros: 0,
            value: .quantity(Quantity(Double.leastNonzeroMagnitude, "kcal")), metadata: ["": ""]),
        Sample(
            uuid: "u-neg-huge", type: .distanceWalkingRunning, startMicros: 1, endMicros: 2,
            value: .quantity(Quantity(-Double.greatestFiniteMagnitude, "mi")),
            metadata: ["ключ 🔑": "значение", "z": "last", "a": "first", "A": "upper"]),
        Sample(
            uuid: "u-small", type: .bodyMass, startMicros: 5, endMicros: 6,
            value: .quantity(Quantity(-Double.leastNormalMagnitude, "")), sourceAppID: "", createdMicros: -7),
        Sample(
            uuid: "sleep-1", type: .sleepAnalysis, startMicros: 1_699_990_000_000_000, endMicros: 1_700_010_000_000_000,
            value: .category(3), metadata: ["HKTimeZone": "Europe/Zürich"], sourceAppID: "org.example.睡眠"),
        Sample(uuid: "", type: emptyType, startMicros: 0, endMicros: 0, value: .category(0)),
        Sample(uuid: "cat-min", type: .sleepAnalysis, startMicros: -1, endMicros: 0, value: .category(Int64.min)),
        Sample(uuid: "cat-max", type: oddType, startMicros: 1, endMicros: 1, value: .category(Int64.max)),
        Sample(
            uuid: "bp", type: .bloodPressure, startMicros: 1_700_000_000_000_000, endMicros: 1_700_000_060_000_000,
            value: .correlation([
                Sample(uuid: "bp-s", type: .bloodPressureSystolic, startMicros: 1_700_000_000_000_000, endMicros: 1_700_000_060_000_000,
                       value: .quantity(Quantity(121, "mmHg")), sourceAppID: "com.example.cuff", createdMicros: 9),
                Sample(uuid: "bp-d", type: .bloodPressureDiastolic, startMicros: 1_700_000_000_000_000, endMicros: 1_700_000_060_000_000,
                       value: .quantity(Quantity(79, "mmHg")), metadata: ["arm": "left"]),
            ]),
            metadata: ["HKWasUserEntered": "1"], sourceAppID: "com.example.cuff", createdMicros: 9),
        Sample(uuid: "food-empty", type: .food, startMicros: 0, endMicros: 0, value: .correlation([])),
        Sample(
            uuid: "run", type: .workout, startMicros: 1_700_000_000_000_000, endMicros: 1_700_003_600_000_000,
            value: .workout(WorkoutDetails(
                activityType: "running", durationMicros: 3_300_000_000, totalEnergy: Quantity(612.5, "kcal"),
                totalDistance: Quantity(10.02, "km"))),
            metadata: ["HKIndoorWorkout": "0"], sourceAppID: "com.example.run", createdMicros: 1_700_003_600_000_001),
        Sample(
            uuid: "walk", type: .workout, startMicros: -5, endMicros: 5,
            value: .workout(WorkoutDetails(activityType: "walking", durationMicros: 10, totalEnergy: Quantity(-0.0, "kJ")))),
        Sample(
            uuid: "ride", type: .workout, startMicros: 0, endMicros: 1,
            value: .workout(WorkoutDetails(
                activityType: "cycling 🚲", durationMicros: -1, totalDistance: Quantity(Double.leastNonzeroMagnitude, "m")))),
        Sample(
            uuid: "bare", type: .workout, startMicros: Int64.min, endMicros: Int64.min,
            value: .workout(WorkoutDetails(activityType: "", durationMicros: 0))),
        Sample(
            uuid: "long-\(String(repeating: "ü", count: 500))", type: longType, startMicros: 1, endMicros: 2,
            value: .quantity(Quantity(1e-300, "%")),
            metadata: Dictionary(uniqueKeysWithValues: (0..<40).map { ("key \($0) ✓", String(repeating: "v", count: $0)) })),
    ]

    /// A page of 2,000 samples, as Query sends thousands per page: every kind, some metadata.
    static let bigPage: [Sample] = (0..<2_000).map { index in
        let start = 1_700_000_000_000_000 + Int64(index) * 60_000_000
        let value: SampleValue = switch index % 4 {
        case 0: .quantity(Quantity(Double(index) * 1.25, "count"))
        case 1: .category(Int64(index % 6))
        case 2: .workout(WorkoutDetails(
            activityType: "walking", durationMicros: 60_000_000,
            totalEnergy: index % 8 == 2 ? Quantity(Double(index), "kcal") : nil, totalDistance: Quantity(0.08, "km")))
        default: .quantity(Quantity(-Double(index) / 3, "kg"))
        }
        return Sample(
            uuid: "page-\(index)", type: index % 4 == 2 ? .workout : .stepCount, startMicros: start,
            endMicros: start + 59_000_000, value: value,
            metadata: index % 3 == 0 ? [:] : ["index": "\(index)", "ü": "✓"], sourceAppID: "com.example.steps",
            createdMicros: start + 1)
    }

    /// Every option combination (and unknown bits) with every shape of bounds.
    static let predicates: [SamplePredicate] = {
        let options: [SamplePredicate.Options] = [
            [], .strictStartDate, .strictEndDate, [.strictStartDate, .strictEndDate],
            SamplePredicate.Options(rawValue: 0x8000_0004), SamplePredicate.Options(rawValue: UInt32.max),
        ]
        let bounds: [(Int64?, Int64?)] = [
            (nil, nil), (1_700_000_000_000_000, nil), (nil, 1_700_086_400_000_000),
            (1_700_000_000_000_000, 1_700_086_400_000_000), (-86_400_000_000, 0), (0, 0), (Int64.min, Int64.max),
        ]
        var result: [SamplePredicate] = []
        for option in options {
            for (start, end) in bounds { result.append(SamplePredicate(startMicros: start, endMicros: end, options: option)) }
        }
        return result
    }()

    static let query = SampleQuery(
        type: .heartRate, predicate: SamplePredicate(startMicros: 1_700_000_000_000_000, options: .strictStartDate),
        limit: 5_000, sort: SampleSort(key: .endDate, descending: true), unit: "count/s", pageSize: 2_000)

    static let anchoredQuery = AnchoredQuery(
        type: .stepCount, predicate: SamplePredicate(endMicros: -1, options: .strictEndDate),
        anchor: patternBytes(48, seed: 3) + [0, 0, 255], limit: UInt32.max, unit: "count")

    static let anchoredPage = AnchoredPage(
        added: Array(healthSamples.prefix(6)), deletedUUIDs: ["gone-1", "", "gelöscht-🗑", "gone-1"],
        // "gone-1" twice: two apps' samples with one uuid; an empty source app id is still sent.
        deletedSourceAppIDs: ["com.example.steps", "", "org.example.睡眠", "com.example.other"],
        newAnchor: [0, 1, 2, 3, 0], done: true)

    static let statisticsQuery = StatisticsQuery(
        type: .stepCount, predicate: SamplePredicate(startMicros: 1_700_000_000_000_000, endMicros: 1_700_604_800_000_000),
        options: [.sum], interval: .day, anchorMicros: 1_699_999_200_000_000, timeZone: "Europe/Zürich", unit: "count")

    static let statisticsResult = StatisticsResult(
        unit: "count/min",
        buckets: [
            StatisticsBucket(
                startMicros: 1_700_000_000_000_000, endMicros: 1_700_086_400_000_000, sampleCount: 1_440, sum: 12_345.5),
            StatisticsBucket(
                startMicros: 1_700_086_400_000_000, endMicros: 1_700_172_800_000_000, sampleCount: UInt64.max,
                average: 61.25, minimum: 40, maximum: 182.5),
            StatisticsBucket(startMicros: -3_600_000_000, endMicros: 0, sampleCount: 0),
            StatisticsBucket(
                startMicros: Int64.min, endMicros: Int64.max, sampleCount: 1, sum: 0, average: -0.0,
                minimum: -Double.greatestFiniteMagnitude, maximum: Double.leastNonzeroMagnitude),
            StatisticsBucket(
                startMicros: 1, endMicros: 2, sampleCount: 2, sum: nil, average: nil,
                minimum: Double.leastNormalMagnitude / 4, maximum: nil),
        ])

    static let accessLog: [AccessLogEntry] = [
        AccessLogEntry(
            atMicros: 1_700_000_000_000_000, appID: "com.example.steps", operation: "read", type: .stepCount,
            sampleCount: 2_000, method: "Statistics"),
        AccessLogEntry(atMicros: -1, appID: "org.example.睡眠", operation: "write", type: .sleepAnalysis, sampleCount: 0, method: "AdminImport 📥"),
        AccessLogEntry(atMicros: Int64.max, appID: "", operation: "delete", type: oddType, sampleCount: UInt64.max),
        AccessLogEntry(atMicros: 0, appID: unicode, operation: "", type: emptyType, sampleCount: 1),
    ]
}
