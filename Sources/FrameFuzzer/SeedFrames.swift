import BrokerModel
import BrokerWire

/// Representative messages of every kind, in both directions, with awkward values: the seed corpus.
///
/// Kept small (a few kilobytes per frame) so that libFuzzer mutates them quickly; the field values
/// follow the round-trip samples of the BrokerWire tests (unicode, extremes, empty and absent fields).
enum SeedFrames {
    static let unicode = "Grüße aus Zürich — 心拍数 🫀 naïve ½"
    static let oddType = ObjectType("HKQuantityTypeIdentifier心拍数🫀")
    static let emptyType = ObjectType("")
    static let longType = ObjectType(String(repeating: "HKCategoryTypeIdentifierÜ", count: 8))

    /// `count` bytes of a recognisable pattern that depends on `seed`.
    static func pattern(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 131) ^ ($0 >> 8) &+ seed &* 7) }
    }

    static let samples: [Sample] = [
        Sample(
            uuid: "6F9619FF-8B86-D011-B42D-00C04FC964FF", type: .heartRate, startMicros: 1_700_000_000_000_000,
            endMicros: 1_700_000_000_000_000, value: .quantity(Quantity(72, "count/min")),
            metadata: ["HKMetadataKeyHeartRateMotionContext": "1", "device": "Watch ⌚️", "note": unicode],
            sourceAppID: "com.example.心", createdMicros: 1_700_000_000_000_123),
        Sample(uuid: "u-neg", type: .bodyMass, startMicros: -86_400_000_000, endMicros: -1, value: .quantity(Quantity(-0.0, "kg"))),
        Sample(
            uuid: "u-huge", type: .stepCount, startMicros: Int64.min, endMicros: Int64.max,
            value: .quantity(Quantity(Double.greatestFiniteMagnitude, "count"))),
        Sample(
            uuid: "u-tiny", type: .activeEnergyBurned, startMicros: 0, endMicros: 0,
            value: .quantity(Quantity(Double.leastNonzeroMagnitude, "kcal")), metadata: ["": ""]),
        Sample(
            uuid: "u-nan", type: .bodyMass, startMicros: 5, endMicros: 6, value: .quantity(Quantity(Double.nan, "")),
            sourceAppID: "", createdMicros: -7),
        Sample(
            uuid: "u-inf", type: .distanceWalkingRunning, startMicros: 1, endMicros: 2,
            value: .quantity(Quantity(-Double.infinity, "mi")), metadata: ["ключ 🔑": "значение", "z": "last", "a": "first"]),
        Sample(
            uuid: "sleep-1", type: .sleepAnalysis, startMicros: 1_699_990_000_000_000, endMicros: 1_700_010_000_000_000,
            value: .category(3), metadata: ["HKTimeZone": "Europe/Zürich"], sourceAppID: "org.example.睡眠"),
        Sample(uuid: "", type: emptyType, startMicros: 0, endMicros: 0, value: .category(0)),
        Sample(uuid: "cat-min", type: .sleepAnalysis, startMicros: -1, endMicros: 0, value: .category(Int64.min)),
        Sample(uuid: "cat-max", type: oddType, startMicros: 1, endMicros: 1, value: .category(Int64.max)),
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
            uuid: "bare", type: .workout, startMicros: Int64.min, endMicros: Int64.min,
            value: .workout(WorkoutDetails(activityType: "", durationMicros: 0))),
    ]

    /// Correlations as a Query of a correlation type returns them: each with its objects, one empty.
    static let correlations: [Sample] = [
        Sample(
            uuid: "bp-1", type: .bloodPressure, startMicros: 1_700_000_000_000_000, endMicros: 1_700_000_060_000_000,
            value: .correlation([
                Sample(
                    uuid: "bp-1-sys", type: .bloodPressureSystolic, startMicros: 1_700_000_000_000_000,
                    endMicros: 1_700_000_060_000_000, value: .quantity(Quantity(121, "mmHg")), sourceAppID: "com.example.cuff"),
                Sample(
                    uuid: "bp-1-dia", type: .bloodPressureDiastolic, startMicros: 1_700_000_000_000_000,
                    endMicros: 1_700_000_060_000_000, value: .quantity(Quantity(79, "mmHg")), metadata: ["arm": "left"],
                    sourceAppID: "com.example.cuff"),
            ]),
            metadata: ["HKWasUserEntered": "1"], sourceAppID: "com.example.cuff", createdMicros: 1_700_000_060_000_001),
        Sample(uuid: "bp-empty", type: .bloodPressure, startMicros: 0, endMicros: 0, value: .correlation([])),
    ]

    static let apps: [AppInfo] = [
        AppInfo(
            appID: "com.example.steps", name: "Steps 👣", readUsage: "Zählt Schritte", shareUsage: "",
            pinnedUID: 1000, createdMicros: 1_700_000_000_123_456, tokenRotatedMicros: 1_700_000_100_000_000),
        AppInfo(appID: "", name: "", pinnedUID: nil),
        AppInfo(appID: "org.example.睡眠", name: unicode, shareUsage: "writes sleep", pinnedUID: 0, createdMicros: -1),
        AppInfo(appID: "max", name: "uid max", pinnedUID: UInt32.max, createdMicros: Int64.min),
    ]

    static let grants: [Grant] = [
        Grant(
            type: .stepCount, share: .allow, read: .limited(fromMicros: 1_690_000_000_000_000),
            decidedMicros: 1_700_000_000_000_000, decidedBy: "agent"),
        Grant(type: .heartRate, read: .full, decidedMicros: 1, decidedBy: "policy"),
        Grant(type: .workout, share: .deny, decidedMicros: -1, decidedBy: ""),
        Grant(type: oddType, share: .deny, read: .deny, decidedMicros: Int64.max, decidedBy: "person 👤"),
        Grant(type: emptyType, decidedMicros: 0, decidedBy: "nobody asked"),
    ]

    static let decisions: [TypeDecision] = [
        TypeDecision(type: .stepCount, share: .allow, read: .limited(fromMicros: 1_700_000_000_000_000)),
        TypeDecision(type: .heartRate, share: nil, read: .full),
        TypeDecision(type: .workout, share: .deny, read: .deny),
        TypeDecision(type: oddType, share: nil, read: nil),
        TypeDecision(type: emptyType, read: .limited(fromMicros: Int64.min)),
    ]

    static let prompt = Prompt(
        id: 17, appID: "com.example.心", appName: "Heart ♥", readUsage: "reads your heart rate",
        shareUsage: "écrit des séances", shareTypes: [.workout, .activeEnergyBurned, oddType],
        readTypes: [.heartRate, .dateOfBirth, longType], createdMicros: 1_700_000_000_654_321,
        deadlineMicros: 1_700_000_120_000_000)

    static let predicates: [SamplePredicate] = [
        .all,
        SamplePredicate(startMicros: 1_700_000_000_000_000, options: .strictStartDate),
        SamplePredicate(endMicros: -1, options: .strictEndDate),
        SamplePredicate(startMicros: Int64.min, endMicros: Int64.max, options: SamplePredicate.Options(rawValue: UInt32.max)),
        SamplePredicate(startMicros: 10, endMicros: 5, options: [.strictStartDate, .strictEndDate]),
    ]

    static let clientFrames: [ClientFrame] = {
        var frames: [ClientFrame] = [
            .call(Call(
                callID: 1, timeoutMicros: 250_000,
                request: .hello(HelloRequest(appID: "com.example.steps", appToken: "tök-🔑", protocolVersion: 1)))),
            .call(Call(callID: 2, request: .hello(HelloRequest(appID: "", appToken: "", protocolVersion: 0)))),
            .call(Call(
                callID: UInt64.max, timeoutMicros: Int64.max, initialCredit: UInt32.max,
                request: .ping(PingRequest(delayMicros: 1_500, payload: [0, 1, 2, 0, 255])))),
            .call(Call(callID: 3, timeoutMicros: Int64.min, request: .ping(PingRequest(delayMicros: -1)))),
            .call(Call(callID: 5, initialCredit: 16, request: .pingStream(PingStreamRequest(count: 1_000, payload: pattern(64, seed: 1))))),
            .call(Call(callID: 6, request: .pingStream(PingStreamRequest(count: 0)))),
            .call(Call(
                callID: 100,
                request: .adminAddApp(AppRegistration(
                    appID: "com.example.心", name: unicode, readUsage: "reads heart rate", shareUsage: "écrit", pinnedUID: nil)))),
            .call(Call(callID: 101, request: .adminAddApp(AppRegistration(appID: "a", name: "", pinnedUID: UInt32.max)))),
            .call(Call(callID: 103, request: .adminListApps)),
            .call(Call(callID: 104, request: .adminRemoveApp(appID: "com.example.ünïcode", deleteData: true))),
            .call(Call(callID: 105, request: .adminRemoveApp(appID: "", deleteData: false))),
            .call(Call(callID: 106, request: .adminRotateToken(appID: "org.example.睡眠"))),
            .call(Call(callID: 107, request: .adminBrokerInfo)),
            .call(Call(
                callID: 20, timeoutMicros: 120_000_000,
                request: .requestAuthorization(share: [.stepCount, .workout, oddType], read: [.heartRate, .dateOfBirth, longType]))),
            .call(Call(callID: 21, request: .requestAuthorization(share: [], read: []))),
            .call(Call(callID: 24, request: .authorizationStatus(.stepCount))),
            .call(Call(callID: 25, request: .authorizationStatus(emptyType))),
            .call(Call(callID: 27, request: .requestStatus(share: [.bodyMass], read: [oddType, .heartRate, .heartRate]))),
            .call(Call(callID: 30, request: .earliestAuthorizedSampleDate([.stepCount, .heartRate, oddType]))),
            .call(Call(callID: 32, timeoutMicros: 1, request: .earliestPermittedSampleDate)),
            .call(Call(callID: 33, request: .readCharacteristics([.dateOfBirth, .biologicalSex, .bloodType, oddType]))),
            .call(Call(callID: 40, request: .save(samples))),
            .call(Call(callID: 41, request: .save([]))),
            .call(Call(callID: 43, request: .delete(uuids: ["u-1", "", "ü-🗑", "u-1"], type: nil, predicate: nil))),
            .call(Call(callID: 44, request: .delete(uuids: [], type: .stepCount, predicate: predicates[2]))),
            .call(Call(callID: 46, request: .delete(uuids: [], type: nil, predicate: .all))),
            .call(Call(
                callID: 47, initialCredit: 4,
                request: .query(SampleQuery(
                    type: .heartRate, predicate: predicates[1], limit: 5_000,
                    sort: SampleSort(key: .endDate, descending: true), unit: "count/s", pageSize: 2_000)))),
            .call(Call(callID: 48, request: .query(SampleQuery(type: emptyType, predicate: predicates[3])))),
            .call(Call(
                callID: 50,
                request: .anchoredQuery(AnchoredQuery(
                    type: .stepCount, predicate: predicates[2], anchor: pattern(48, seed: 3) + [0, 0, 255],
                    limit: UInt32.max, unit: "count")))),
            .call(Call(callID: 51, request: .anchoredQuery(AnchoredQuery(type: .workout)))),
            .call(Call(
                callID: 52,
                request: .statistics(StatisticsQuery(
                    type: .stepCount, predicate: predicates[4], options: [.sum], interval: .day,
                    anchorMicros: 1_699_999_200_000_000, timeZone: "Europe/Zürich", unit: "count")))),
            .call(Call(
                callID: 54,
                request: .statistics(StatisticsQuery(
                    type: oddType, predicate: .all, options: StatisticsOptions(rawValue: 0xF0), interval: .month,
                    anchorMicros: Int64.min, timeZone: "", unit: "%")))),
            .call(Call(callID: 57, initialCredit: 1, request: .observe([.stepCount, .heartRate, oddType, emptyType]))),
            .call(Call(callID: 110, initialCredit: 8, request: .adminWatchPrompts)),
            .call(Call(callID: 111, request: .adminAnswerPrompt(promptID: 17, decisions: decisions))),
            .call(Call(callID: 112, request: .adminAnswerPrompt(promptID: UInt64.max, decisions: []))),
            .call(Call(callID: 114, request: .adminCancelPrompt(promptID: 42))),
            .call(Call(callID: 116, request: .adminListGrants(appID: "com.example.心"))),
            .call(Call(callID: 118, request: .adminRevoke(appID: "org.example.睡眠", types: [.sleepAnalysis, oddType, emptyType]))),
            .call(Call(callID: 120, request: .adminListSources)),
            .call(Call(callID: 121, request: .adminSetCharacteristic(CharacteristicValue(type: .dateOfBirth, value: "1990-04-01")))),
            .call(Call(callID: 122, request: .adminSetCharacteristic(CharacteristicValue(type: .bloodType, value: nil)))),
            .call(Call(callID: 125, request: .adminExplain(appID: "com.example.steps", type: .stepCount))),
            .call(Call(
                callID: 140,
                request: .adminSetGrant(
                    appID: "com.example.steps", decision: TypeDecision(type: .stepCount, share: .allow, read: .limited(fromMicros: 1_690_000_000_000_000))))),
            .call(Call(callID: 141, request: .adminSetGrant(appID: "", decision: TypeDecision(type: oddType)))),
            .call(Call(callID: 150, request: .adminBackup(path: "/var/backups/healthbroker.sqlite"))),
            .call(Call(callID: 130, request: .adminImport(appID: "com.example.import 📥", samples: Array(samples.prefix(5))))),
            .call(Call(callID: 131, request: .adminImport(appID: "", samples: []))),
            .call(Call(callID: 132, request: .adminImport(appID: "com.example.a", samples: Array(samples.prefix(2)), batchID: "0123456789abcdef"))),
            .call(Call(
                callID: 160,
                request: .adminStatistics(StatisticsQuery(
                    type: .heartRate, predicate: predicates[4], options: [.average, .minimum, .maximum], interval: .hour,
                    anchorMicros: 1_699_999_200_000_000, timeZone: "Europe/Zürich", unit: "count/min")))),
            .call(Call(callID: 161, request: .adminStatistics(StatisticsQuery(type: oddType, predicate: .all, options: [])))),
            .call(Call(callID: 170, request: .adminSetSourcePriority(type: .stepCount, appIDs: ["com.example.watch", "com.example.phone"]))),
            .call(Call(callID: 171, request: .adminListSourcePriority(type: oddType))),
            .call(Call(callID: 133, initialCredit: 2, request: .adminExport(type: nil, appID: nil))),
            .call(Call(callID: 134, request: .adminExport(type: .heartRate, appID: "com.example.心"))),
            .call(Call(callID: 137, request: .adminAccessLog(appID: nil, limit: 0))),
            .call(Call(callID: 138, request: .adminAccessLog(appID: unicode, limit: UInt32.max))),
            .call(Call(callID: 0, request: nil)),
            .cancel(callID: 42),
            .cancel(callID: UInt64.max),
            .credit(callID: 7, items: 64),
            .credit(callID: UInt64.max, items: UInt32.max),
        ]
        frames.append(.call(Call(callID: 9, request: .delete(uuids: ["x"], type: oddType, predicate: predicates[3]))))
        // The empty request of every method the frames above leave out (a method added since), from
        // the generated method table: a new method is seeded without editing this list. Last, so the
        // seeds before keep their names.
        let seeded = Set(frames.compactMap { frame -> ProtoMethod? in
            guard case .call(let call) = frame else { return nil }
            return call.request?.method
        })
        for method in ProtoMethod.allCases where !seeded.contains(method) {
            frames.append(.call(Call(callID: UInt64(1_000 + method.rawValue), request: method.defaultRequest)))
        }
        return frames
    }()

    /// The server frames: those listed below, then the empty answer of every unary method whose
    /// response case they leave out (a method added since), from the generated method table, so a
    /// new method is seeded without editing the list. Added last, so the listed seeds keep their names.
    static let serverFrames: [ServerFrame] = {
        let seeded = Set(listedServerFrames.compactMap { $0.response.map(caseLabel) })
        return listedServerFrames + ProtoMethod.allCases
            .filter { !$0.isServerStreaming && !seeded.contains(caseLabel($0.defaultResponse)) }
            .map { ServerFrame(callID: UInt64(1_000 + $0.rawValue), response: $0.defaultResponse) }
    }()

    /// A response's case name (the oneof field's, lower camel case).
    private static func caseLabel(_ response: Proto.ServerFrame.Response) -> String {
        Mirror(reflecting: response).children.first?.label ?? String(describing: response)
    }

    private static let listedServerFrames: [ServerFrame] = [
        ServerFrame(
            callID: 1,
            response: .hello(HelloResponse(
                brokerVersion: "0.1.0-β", protocolVersion: 1, maxFrameBytes: 4 << 20,
                brokerTimeMicros: 1_700_000_000_000_001, maxCallsInFlight: 256))),
        ServerFrame(
            callID: 2,
            response: .hello(HelloResponse(
                brokerVersion: "", protocolVersion: 0, maxFrameBytes: 0, brokerTimeMicros: Int64.min, maxCallsInFlight: UInt32.max))),
        ServerFrame(callID: 3, response: .ping(PingResponse(payload: [9, 0, 8, 0], brokerTimeMicros: 1_234, sequence: 0))),
        ServerFrame(callID: 5, response: .streamItem(.ping(PingResponse()))),
        ServerFrame(
            callID: 5,
            response: .streamItem(.ping(PingResponse(payload: pattern(64, seed: 2), brokerTimeMicros: Int64.max, sequence: UInt64.max)))),
        ServerFrame(callID: 5, status: .ok),
        ServerFrame(callID: 6, response: .streamItem(.promptEvent(.raised(prompt)))),
        ServerFrame(callID: 6, response: .streamItem(.promptEvent(.resolved(promptID: 17, resolution: .answered)))),
        ServerFrame(callID: 6, response: .streamItem(.promptEvent(.resolved(promptID: UInt64.max, resolution: .withdrawn)))),
        ServerFrame(callID: 20, response: .requestAuthorization),
        ServerFrame(callID: 24, response: .authorizationStatus(.sharingAuthorized)),
        ServerFrame(callID: 24, response: .authorizationStatus(.notDetermined)),
        ServerFrame(callID: 27, response: .requestStatus(.shouldRequest)),
        ServerFrame(callID: 30, response: .earliestAuthorizedSampleDate([:])),
        ServerFrame(
            callID: 30,
            response: .earliestAuthorizedSampleDate([
                .stepCount: 1_690_000_000_000_000, .heartRate: -86_400_000_000, oddType: Int64.min, emptyType: 0,
                longType: Int64.max,
            ])),
        ServerFrame(callID: 32, response: .earliestPermittedSampleDate(1_600_000_000_000_000)),
        ServerFrame(
            callID: 33,
            response: .readCharacteristics([
                CharacteristicValue(type: .dateOfBirth, value: "1990-04-01"),
                CharacteristicValue(type: .biologicalSex, value: nil),
                CharacteristicValue(type: .bloodType, value: ""),
                CharacteristicValue(type: oddType, value: unicode),
            ])),
        ServerFrame(callID: 100, response: .adminAddApp(AppCredentials(app: apps[0], token: "hb_Zm9vYmFy_🔑"))),
        ServerFrame(callID: 103, response: .adminListApps(apps)),
        ServerFrame(callID: 102, response: .adminListApps([])),
        ServerFrame(callID: 105, response: .adminRemoveApp(connectionsClosed: 3)),
        ServerFrame(callID: 107, response: .adminRotateToken(AppCredentials(app: apps[3], token: unicode))),
        ServerFrame(
            callID: 108,
            response: .adminBrokerInfo({
                var info = BrokerInfo(
                    brokerVersion: "0.1.0", startedMicros: 1_699_999_999_000_000, appConnections: 12, adminConnections: 1,
                    callsServed: UInt64.max, dataDirectory: "/home/zoë/.local/share/健康", brokerTimeMicros: 1_700_000_000_000_000)
                info.framesSent = 1_234_567_890_123
                info.writeCalls = UInt64.max - 1
                return info
            }())),
        ServerFrame(callID: 111, response: .adminAnswerPrompt),
        ServerFrame(callID: 114, response: .adminCancelPrompt),
        ServerFrame(callID: 116, response: .adminListGrants(grants)),
        ServerFrame(callID: 118, response: .adminRevoke(revoked: UInt32.max)),
        ServerFrame(
            callID: 120,
            response: .adminListSources([
                Source(
                    appID: "com.example.steps", appName: "Steps 👣", firstRequestMicros: 1_700_000_000_000_000,
                    lastRequestMicros: 1_700_000_100_000_000, isRegistered: true),
                Source(appID: "", appName: "", firstRequestMicros: Int64.min, lastRequestMicros: Int64.max, isRegistered: false),
                Source(
                    appID: "com.example.import", appName: "com.example.import", firstRequestMicros: 0, lastRequestMicros: 0,
                    isRegistered: false, sampleCount: 52_586, everAsked: false),
            ])),
        ServerFrame(callID: 121, response: .adminSetCharacteristic),
        ServerFrame(
            callID: 125,
            response: .adminExplain(Explanation(
                grant: grants[0], earliestPermittedMicros: 1_600_000_000_000_000,
                effectiveReadFromMicros: 1_690_000_000_000_000, text: "Limited: reads from 2023-07-22."))),
        ServerFrame(
            callID: 126,
            response: .adminExplain(Explanation(grant: nil, earliestPermittedMicros: 0, effectiveReadFromMicros: nil, text: "Never asked."))),
        ServerFrame(callID: 140, response: .adminSetGrant(grants[0])),
        ServerFrame(callID: 150, response: .adminBackup(path: "/var/backups/healthbroker.sqlite", bytes: 81_920, pages: 20)),
        ServerFrame(callID: 40, response: .save(saved: 15, unchanged: 0)),
        ServerFrame(callID: 43, response: .delete(deleted: 4_000_000_000)),
        ServerFrame(callID: 47, response: .streamItem(.samples(samples))),
        ServerFrame(callID: 47, response: .streamItem(.samples([]))),
        // A correlation Query's page and a correlation AnchoredQuery's (the row writer writes both).
        ServerFrame(callID: 48, response: .streamItem(.samples(correlations))),
        ServerFrame(
            callID: 51,
            response: .streamItem(.anchoredPage(AnchoredPage(
                added: correlations, deletedUUIDs: ["bp-gone"], deletedSourceAppIDs: ["com.example.cuff"],
                newAnchor: pattern(49, seed: 3), done: true)))),
        ServerFrame(
            callID: 50,
            response: .streamItem(.anchoredPage(AnchoredPage(
                added: Array(samples.prefix(4)), deletedUUIDs: ["gone-1", "", "gelöscht-🗑", "gone-1"],
                // "gone-1" twice: two apps' samples with one uuid.
                deletedSourceAppIDs: ["com.example.steps", "", "org.example.睡眠", "com.example.other"],
                newAnchor: [0, 1, 2, 3, 0], done: true)))),
        ServerFrame(callID: 50, response: .streamItem(.anchoredPage(AnchoredPage()))),
        ServerFrame(
            callID: 52,
            response: .statistics(StatisticsResult(
                unit: "count/min",
                buckets: [
                    StatisticsBucket(
                        startMicros: 1_700_000_000_000_000, endMicros: 1_700_086_400_000_000, sampleCount: 1_440, sum: 12_345.5),
                    StatisticsBucket(
                        startMicros: 1_700_086_400_000_000, endMicros: 1_700_172_800_000_000, sampleCount: UInt64.max,
                        average: 61.25, minimum: 40, maximum: 182.5),
                    StatisticsBucket(startMicros: -3_600_000_000, endMicros: 0, sampleCount: 0),
                    StatisticsBucket(
                        startMicros: Int64.min, endMicros: Int64.max, sampleCount: 1, sum: Double.nan, average: -0.0,
                        minimum: -Double.infinity, maximum: Double.leastNonzeroMagnitude),
                ]))),
        ServerFrame(callID: 57, response: .streamItem(.observed(type: .stepCount, changedMicros: 1_700_000_000_000_000))),
        ServerFrame(callID: 57, response: .streamItem(.observed(type: emptyType, changedMicros: -1))),
        ServerFrame(callID: 130, response: .adminImport(saved: 12, unchanged: 3)),
        ServerFrame(
            callID: 160,
            response: .adminStatistics(StatisticsResult(
                unit: "count/min",
                buckets: [StatisticsBucket(startMicros: 0, endMicros: 3_600_000_000, sampleCount: 12, average: 61.5, minimum: 50, maximum: 90)]))),
        ServerFrame(callID: 161, response: .adminStatistics(StatisticsResult(unit: "", buckets: []))),
        ServerFrame(callID: 170, response: .adminSetSourcePriority),
        ServerFrame(callID: 171, response: .adminListSourcePriority(appIDs: ["com.example.watch", "com.example.phone"])),
        ServerFrame(
            callID: 138,
            response: .adminAccessLog([
                AccessLogEntry(
                    atMicros: 1_700_000_000_000_000, appID: "com.example.steps", operation: "read", type: .stepCount,
                    sampleCount: 2_000, method: "Query"),
                AccessLogEntry(atMicros: Int64.max, appID: "", operation: "delete", type: oddType, sampleCount: UInt64.max),
            ])),
        ServerFrame(callID: 9, status: Status(code: .permissionDenied, domain: .authorizationDenied, message: "denied ☂")),
        ServerFrame(callID: 11, status: Status(code: .internal, message: "no domain here")),
        ServerFrame(
            callID: 0,
            status: Status(
                code: .resourceExhausted, domain: .protocolError, message: "frame of 5000000 bytes exceeds the limit of 4194304 bytes")),
        ServerFrame(
            callID: 12, status: Status(code: .unavailable, domain: .brokerShuttingDown, message: "bye"),
            response: .ping(PingResponse(payload: [1]))),
        ServerFrame(callID: 13),
        // Last, so the seeds before keep their names: deleted lists of different lengths, which decode.
        ServerFrame(
            callID: 50,
            response: .streamItem(.anchoredPage(AnchoredPage(
                deletedUUIDs: ["a", "b"], deletedSourceAppIDs: ["com.example.steps"], newAnchor: [9], done: true)))),
    ]

    /// Every seed input, named: one file per frame, a few multi-frame streams, and malformed framing.
    /// A session that opens streams with the largest credit and grants more past the window.
    static let streamCreditSession: [ClientFrame] = [
        .call(Call(callID: 1, request: .hello(HelloRequest(appID: "com.example.steps", appToken: "token", protocolVersion: 1)))),
        .call(Call(callID: 2, initialCredit: UInt32.max, request: .pingStream(PingStreamRequest(count: UInt32.max, payload: pattern(1_024, seed: 15))))),
        .credit(callID: 2, items: UInt32.max),
        .credit(callID: 2, items: UInt32.max),
        .call(Call(callID: 3, initialCredit: UInt32.max, request: .query(SampleQuery(type: .stepCount, limit: UInt32.max, pageSize: UInt32.max)))),
        .call(Call(callID: 4, initialCredit: 4_097, request: .observe([.stepCount]))),
        .credit(callID: 4, items: 1),
        .cancel(callID: 2),
        .credit(callID: 2, items: 7),
    ]

    static func corpus() -> [(name: String, bytes: [UInt8])] {
        var files: [(name: String, bytes: [UInt8])] = []
        var clientEncoded: [[UInt8]] = []
        for (index, frame) in clientFrames.enumerated() {
            var buffer: [UInt8] = []
            WireCodec.append(frame, to: &buffer)
            clientEncoded.append(buffer)
            files.append((name: "client-\(threeDigits(index))", bytes: buffer))
        }
        var serverEncoded: [[UInt8]] = []
        for (index, frame) in serverFrames.enumerated() {
            var buffer: [UInt8] = []
            WireCodec.append(frame, to: &buffer)
            serverEncoded.append(buffer)
            files.append((name: "server-\(threeDigits(index))", bytes: buffer))
        }
        // A session's worth of frames back to back, as a connection delivers them.
        files.append((name: "stream-client-session", bytes: (clientEncoded.prefix(4) + clientEncoded.suffix(4)).flatMap { $0 }))
        files.append((name: "stream-server-session", bytes: serverEncoded.prefix(8).flatMap { $0 }))
        // Streams and credit (issue 15, item 1): the frame that once killed the broker — PingStream
        // with count and credit 2³²−1 (there with a 1 MiB payload; 1 KiB here, under -max_len) — after
        // a Hello, then credit past the window, a cancel, and big-credit query and observe streams.
        files.append((name: "stream-huge-credit-session", bytes: streamCreditSession.flatMap { frame in
            var buffer: [UInt8] = []
            WireCodec.append(frame, to: &buffer)
            return buffer
        }))
        // Framing edge cases: an empty frame, a bad flags byte, an oversized header, a cut-off body.
        files.append((name: "frame-empty", bytes: [0, 0, 0, 0, 0]))
        files.append((name: "frame-bad-flags", bytes: [1] + clientEncoded[0].dropFirst()))
        files.append((name: "frame-oversized", bytes: [0, 0x7F, 0xFF, 0xFF, 0xFF, 0x0A, 0x00]))
        files.append((name: "frame-truncated", bytes: Array(clientEncoded[0].dropLast(3))))
        // Content the codec cannot make from values (samples without a value), and stream/credit sessions.
        files += InvalidContentSeeds.files()
        return files
    }

    private static func threeDigits(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
}
