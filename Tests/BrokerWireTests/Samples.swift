import BrokerModel
@testable import BrokerWire

/// Messages with non-trivial field values for round-trip tests.
enum Samples {
    static let unicode = "Grüße aus Zürich — 心拍数 🫀 naïve ½"
    static let bigPayload = patternBytes((1 << 20) + 3, seed: 5)

    static let apps: [AppInfo] = [
        AppInfo(
            appID: "com.example.steps", name: "Steps 👣", readUsage: "Zählt Schritte", shareUsage: "",
            pinnedUID: 1000, createdMicros: 1_700_000_000_123_456, tokenRotatedMicros: 1_700_000_100_000_000),
        AppInfo(appID: "", name: "", pinnedUID: nil),
        AppInfo(
            appID: "org.example.睡眠", name: unicode, readUsage: String(repeating: "r", count: 3000),
            shareUsage: "writes sleep", pinnedUID: 0, createdMicros: -1, tokenRotatedMicros: Int64.max),
        AppInfo(appID: "max", name: "uid max", pinnedUID: UInt32.max, createdMicros: Int64.min),
    ]

    /// Broker info with every counter set, the write counters included.
    static let busyBroker: BrokerInfo = {
        var info = BrokerInfo(
            brokerVersion: "0.1.0", startedMicros: 1_699_999_999_000_000, appConnections: 12,
            adminConnections: 1, callsServed: UInt64.max, dataDirectory: "/home/zoë/.local/share/健康",
            brokerTimeMicros: 1_700_000_000_000_000)
        info.framesSent = 1_234_567_890_123
        info.writeCalls = UInt64.max - 1
        info.powerLossDurable = true
        info.walFsyncs = 987_654_321
        info.consentAgents = 3
        info.openPrompts = UInt32.max
        info.prompts = [
            prompt,
            Prompt(id: 18, appID: "a", appName: "", readUsage: "", shareUsage: "", shareTypes: [.stepCount], readTypes: [], createdMicros: 1),
        ]
        return info
    }()

    /// Type identifiers a newer client could send: the codec copies them without validating.
    static let oddType = ObjectType("HKQuantityTypeIdentifier心拍数🫀")
    static let emptyType = ObjectType("")
    static let longType = ObjectType(String(repeating: "HKCategoryTypeIdentifierÜ", count: 40))

    static let decisions: [TypeDecision] = [
        TypeDecision(type: .stepCount, share: .allow, read: .limited(fromMicros: 1_700_000_000_000_000)),
        TypeDecision(type: .heartRate, share: nil, read: .full),
        TypeDecision(type: .workout, share: .deny, read: .deny),
        TypeDecision(type: .sleepAnalysis, share: .deny, read: nil),
        TypeDecision(type: oddType, share: nil, read: nil),
        TypeDecision(type: .bodyMass, share: .allow, read: .limited(fromMicros: -86_400_000_000)),
        TypeDecision(type: emptyType, read: .limited(fromMicros: 0)),
        TypeDecision(type: .mindfulSession, read: .limited(fromMicros: Int64.min)),
    ]

    static let grants: [Grant] = [
        Grant(
            type: .stepCount, share: .allow, read: .limited(fromMicros: 1_690_000_000_000_000),
            decidedMicros: 1_700_000_000_000_000, decidedBy: "agent"),
        Grant(type: .heartRate, read: .full, decidedMicros: 1, decidedBy: "policy"),
        Grant(type: .workout, share: .deny, decidedMicros: -1, decidedBy: ""),
        Grant(type: oddType, share: .deny, read: .deny, decidedMicros: Int64.max, decidedBy: "person 👤 \(unicode)"),
        Grant(type: emptyType, decidedMicros: 0, decidedBy: "nobody asked"),
        Grant(type: .bodyMass, read: .limited(fromMicros: -5), decidedMicros: Int64.min, decidedBy: "agent"),
    ]

    static let prompt = Prompt(
        id: 17, appID: "com.example.心", appName: "Heart ♥ \(unicode)", readUsage: "reads your heart rate",
        shareUsage: "écrit des séances", shareTypes: [.workout, .activeEnergyBurned, oddType],
        readTypes: [.heartRate, .restingHeartRate, .dateOfBirth, longType], createdMicros: 1_700_000_000_654_321,
        deadlineMicros: 1_700_000_300_654_321)

    static let clientFrames: [ClientFrame] = [
        .call(Call(
            callID: 1, timeoutMicros: 250_000, initialCredit: 0,
            request: .hello(HelloRequest(appID: "com.example.steps", appToken: "tök-🔑-\(unicode)", protocolVersion: 1)))),
        .call(Call(callID: 2, request: .hello(HelloRequest(appID: "", appToken: "", protocolVersion: 0)))),
        .call(Call(
            callID: UInt64.max, timeoutMicros: Int64.max, initialCredit: UInt32.max,
            request: .ping(PingRequest(delayMicros: 1_500, payload: [0, 1, 2, 0, 255])))),
        .call(Call(callID: 3, timeoutMicros: Int64.min, request: .ping(PingRequest(delayMicros: -1, payload: [])))),
        .call(Call(callID: 4, request: .ping(PingRequest(payload: bigPayload)))),
        .call(Call(
            callID: 5, initialCredit: 16,
            request: .pingStream(PingStreamRequest(count: 1_000, payload: patternBytes(300, seed: 1))))),
        .call(Call(callID: 6, request: .pingStream(PingStreamRequest(count: 0)))),
        .call(Call(
            callID: 100,
            request: .adminAddApp(AppRegistration(
                appID: "com.example.心", name: unicode, readUsage: "reads heart rate",
                shareUsage: "écrit des données", pinnedUID: nil)))),
        .call(Call(callID: 101, request: .adminAddApp(AppRegistration(appID: "a", name: "", pinnedUID: 0)))),
        .call(Call(
            callID: 102,
            request: .adminAddApp(AppRegistration(
                appID: "b", name: "B", readUsage: "", shareUsage: "s", pinnedUID: UInt32.max)))),
        .call(Call(callID: 103, request: .adminListApps)),
        .call(Call(callID: 104, request: .adminRemoveApp(appID: "com.example.ünïcode", deleteData: true))),
        .call(Call(callID: 105, request: .adminRemoveApp(appID: "", deleteData: false))),
        .call(Call(callID: 106, request: .adminRotateToken(appID: "org.example.睡眠"))),
        .call(Call(callID: 107, request: .adminBrokerInfo)),
        .call(Call(
            callID: 20, timeoutMicros: 120_000_000,
            request: .requestAuthorization(share: [.stepCount, .workout, oddType], read: [.heartRate, .dateOfBirth, longType]))),
        .call(Call(callID: 21, request: .requestAuthorization(share: [], read: []))),
        .call(Call(callID: 22, request: .requestAuthorization(share: [], read: [.sleepAnalysis]))),
        .call(Call(callID: 23, request: .requestAuthorization(share: [emptyType, emptyType], read: []))),
        .call(Call(callID: 24, request: .authorizationStatus(.stepCount))),
        .call(Call(callID: 25, request: .authorizationStatus(oddType))),
        .call(Call(callID: 26, request: .authorizationStatus(emptyType))),
        .call(Call(callID: 27, request: .requestStatus(share: [.bodyMass], read: []))),
        .call(Call(callID: 28, request: .requestStatus(share: [], read: [oddType, .heartRate, .heartRate]))),
        .call(Call(callID: 29, request: .requestStatus(share: [], read: []))),
        .call(Call(callID: 30, request: .earliestAuthorizedSampleDate([.stepCount, .heartRate, oddType, longType]))),
        .call(Call(callID: 31, request: .earliestAuthorizedSampleDate([]))),
        .call(Call(callID: 32, timeoutMicros: 1, request: .earliestPermittedSampleDate)),
        .call(Call(callID: 33, request: .readCharacteristics([.dateOfBirth, .biologicalSex, .bloodType, oddType]))),
        .call(Call(callID: 34, request: .readCharacteristics([]))),
        .call(Call(callID: 40, request: .save(healthSamples))),
        .call(Call(callID: 41, request: .save([]))),
        .call(Call(callID: 42, timeoutMicros: 5_000_000, request: .save(bigPage))),
        .call(Call(callID: 43, request: .delete(uuids: ["u-1", "", "ü-🗑", "u-1"], type: nil, predicate: nil))),
        .call(Call(
            callID: 44,
            request: .delete(uuids: [], type: .stepCount, predicate: SamplePredicate(startMicros: -5, options: .strictEndDate)))),
        .call(Call(callID: 45, request: .delete(uuids: ["only"], type: oddType, predicate: nil))),
        .call(Call(callID: 46, request: .delete(uuids: [], type: nil, predicate: .all))),
        .call(Call(callID: 47, initialCredit: 4, request: .query(query))),
        .call(Call(callID: 48, request: .query(SampleQuery(type: emptyType)))),
        .call(Call(
            callID: 49,
            request: .query(SampleQuery(
                type: longType, predicate: predicates[predicates.count - 1], limit: 1,
                sort: SampleSort(key: .startDate, descending: true), unit: unicode, pageSize: UInt32.max)))),
        .call(Call(callID: 50, request: .anchoredQuery(anchoredQuery))),
        .call(Call(callID: 51, request: .anchoredQuery(AnchoredQuery(type: .workout)))),
        .call(Call(callID: 52, request: .statistics(statisticsQuery))),
        .call(Call(
            callID: 53,
            request: .statistics(StatisticsQuery(
                type: .heartRate, predicate: .all, options: [.average, .minimum, .maximum], interval: .none,
                anchorMicros: -1, timeZone: "", unit: "")))),
        .call(Call(
            callID: 54,
            request: .statistics(StatisticsQuery(
                type: oddType, predicate: SamplePredicate(endMicros: 9), options: StatisticsOptions(rawValue: 0xF0),
                interval: .month, anchorMicros: Int64.min, timeZone: "America/Argentina/Buenos_Aires", unit: "%")))),
        .call(Call(
            callID: 55, request: .statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: [], interval: .hour)))),
        .call(Call(
            callID: 56, request: .statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .sum, interval: .week)))),
        .call(Call(callID: 57, initialCredit: 1, request: .observe([.stepCount, .heartRate, oddType, emptyType]))),
        .call(Call(callID: 58, request: .observe([]))),
        .call(Call(callID: 110, initialCredit: 8, request: .adminWatchPrompts)),
        .call(Call(callID: 111, request: .adminAnswerPrompt(promptID: 17, decisions: decisions))),
        .call(Call(callID: 112, request: .adminAnswerPrompt(promptID: UInt64.max, decisions: []))),
        .call(Call(callID: 113, request: .adminAnswerPrompt(promptID: 0, decisions: [TypeDecision(type: .heartRate)]))),
        .call(Call(callID: 114, request: .adminCancelPrompt(promptID: 42))),
        .call(Call(callID: 115, request: .adminCancelPrompt(promptID: 0))),
        .call(Call(callID: 116, request: .adminListGrants(appID: "com.example.心"))),
        .call(Call(callID: 117, request: .adminListGrants(appID: ""))),
        .call(Call(callID: 118, request: .adminRevoke(appID: "org.example.睡眠", types: [.sleepAnalysis, oddType, emptyType]))),
        .call(Call(callID: 119, request: .adminRevoke(appID: "com.example.steps", types: []))),
        .call(Call(callID: 120, request: .adminListSources)),
        .call(Call(
            callID: 121,
            request: .adminSetCharacteristic(CharacteristicValue(type: .dateOfBirth, value: "1990-04-01")))),
        .call(Call(callID: 122, request: .adminSetCharacteristic(CharacteristicValue(type: .bloodType, value: nil)))),
        .call(Call(callID: 123, request: .adminSetCharacteristic(CharacteristicValue(type: .biologicalSex, value: "")))),
        .call(Call(callID: 124, request: .adminSetCharacteristic(CharacteristicValue(type: oddType, value: unicode)))),
        .call(Call(callID: 125, request: .adminExplain(appID: "com.example.steps", type: .stepCount))),
        .call(Call(callID: 126, request: .adminExplain(appID: "", type: emptyType))),
        .call(Call(callID: 127, request: .adminExplain(appID: "org.example.睡眠", type: oddType))),
        .call(Call(
            callID: 140,
            request: .adminSetGrant(
                appID: "com.example.steps",
                decision: TypeDecision(type: .stepCount, share: .allow, read: .limited(fromMicros: 1_690_000_000_000_000))))),
        .call(Call(callID: 141, request: .adminSetGrant(appID: "", decision: TypeDecision(type: emptyType)))),
        .call(Call(callID: 142, request: .adminSetGrant(appID: "org.example.睡眠", decision: TypeDecision(type: oddType, read: .deny)))),
        .call(Call(
            callID: 143,
            request: .adminSetGrant(appID: unicode, decision: TypeDecision(type: .heartRate, share: .deny, read: .limited(fromMicros: Int64.min))))),
        .call(Call(callID: 144, request: .adminSetGrant(appID: "x", decision: TypeDecision(type: .dateOfBirth, read: .full)))),
        .call(Call(callID: 150, request: .adminBackup(path: "/var/backups/healthbroker/2026-12-01 💾.sqlite"))),
        .call(Call(callID: 151, request: .adminBackup(path: ""))),
        .call(Call(callID: 130, request: .adminImport(appID: "com.example.import 📥", samples: healthSamples))),
        .call(Call(callID: 131, request: .adminImport(appID: "", samples: []))),
        .call(Call(callID: 132, request: .adminImport(appID: "bulk", samples: bigPage))),
        .call(Call(callID: 133, request: .adminImport(appID: "com.example.a", samples: healthSamples, batchID: "0123456789abcdef0123456789abcdef"))),
        .call(Call(callID: 160, request: .adminStatistics(statisticsQuery))),
        .call(Call(callID: 161, request: .adminStatistics(StatisticsQuery(type: .heartRate, predicate: .all, options: [.average, .minimum, .maximum])))),
        .call(Call(callID: 162, request: .adminStatistics(StatisticsQuery(type: emptyType, predicate: .all, options: [])))),
        .call(Call(callID: 170, request: .adminSetSourcePriority(type: .stepCount, appIDs: ["com.example.watch", "com.example.心"]))),
        .call(Call(callID: 171, request: .adminSetSourcePriority(type: emptyType, appIDs: []))),
        .call(Call(callID: 172, request: .adminListSourcePriority(type: .distanceWalkingRunning))),
        .call(Call(callID: 173, request: .adminListSourcePriority(type: emptyType))),
        .call(Call(callID: 174, request: .adminStoreInfo(.init()))),
        .call(Call(callID: 133, initialCredit: 2, request: .adminExport(type: nil, appID: nil))),
        .call(Call(callID: 134, request: .adminExport(type: .heartRate, appID: "com.example.心"))),
        .call(Call(callID: 135, request: .adminExport(type: oddType, appID: nil))),
        .call(Call(callID: 136, request: .adminExport(type: nil, appID: "org.example.睡眠"))),
        .call(Call(callID: 137, request: .adminAccessLog(appID: nil, limit: 0))),
        .call(Call(callID: 138, request: .adminAccessLog(appID: "com.example.steps", limit: UInt32.max))),
        .call(Call(callID: 139, request: .adminAccessLog(appID: unicode, limit: 10))),
        .call(Call(callID: 108, timeoutMicros: 9, request: nil)),
        .call(Call(callID: 0, request: nil)),
        .cancel(callID: 42),
        .cancel(callID: 0),
        .cancel(callID: UInt64.max),
        .credit(callID: 7, items: 64),
        .credit(callID: 1, items: 0),
        .credit(callID: UInt64.max, items: UInt32.max),
    ]

    static let serverFrames: [ServerFrame] = [
        ServerFrame(
            callID: 1,
            response: .hello(HelloResponse(
                brokerVersion: "0.1.0-β", protocolVersion: 1, maxFrameBytes: 4 << 20,
                brokerTimeMicros: 1_700_000_000_000_001, maxCallsInFlight: 256))),
        ServerFrame(
            callID: 2,
            response: .hello(HelloResponse(
                brokerVersion: "", protocolVersion: 0, maxFrameBytes: 0, brokerTimeMicros: Int64.min,
                maxCallsInFlight: UInt32.max))),
        ServerFrame(
            callID: 3,
            response: .ping(PingResponse(payload: [9, 0, 8, 0], brokerTimeMicros: 1_234, sequence: 0))),
        ServerFrame(callID: 4, response: .ping(PingResponse(payload: bigPayload, brokerTimeMicros: -5, sequence: 17))),
        ServerFrame(callID: 5, response: .streamItem(.ping(PingResponse()))),
        ServerFrame(
            callID: 5,
            response: .streamItem(.ping(PingResponse(
                payload: patternBytes(300, seed: 2), brokerTimeMicros: Int64.max, sequence: UInt64.max)))),
        ServerFrame(callID: 5, status: .ok),
        ServerFrame(callID: 6, response: .streamItem(.promptEvent(.raised(prompt)))),
        ServerFrame(
            callID: 6,
            response: .streamItem(.promptEvent(.raised(Prompt(
                id: 0, appID: "", appName: "", readUsage: "", shareUsage: "", shareTypes: [], readTypes: [],
                createdMicros: 0, deadlineMicros: 0))))),
        ServerFrame(
            callID: 6,
            response: .streamItem(.promptEvent(.raised(Prompt(
                id: UInt64.max, appID: "a", appName: "A", readUsage: "r", shareUsage: "", shareTypes: [],
                readTypes: [.stepCount], createdMicros: -1, deadlineMicros: Int64.max))))),
        ServerFrame(callID: 6, response: .streamItem(.promptEvent(.resolved(promptID: 17, resolution: .answered)))),
        ServerFrame(callID: 6, response: .streamItem(.promptEvent(.resolved(promptID: 0, resolution: .cancelled)))),
        ServerFrame(
            callID: 6, response: .streamItem(.promptEvent(.resolved(promptID: UInt64.max, resolution: .withdrawn)))),
        ServerFrame(callID: 20, response: .requestAuthorization),
        ServerFrame(callID: 24, response: .authorizationStatus(.notDetermined)),
        ServerFrame(callID: 24, response: .authorizationStatus(.sharingDenied)),
        ServerFrame(callID: 24, response: .authorizationStatus(.sharingAuthorized)),
        ServerFrame(callID: 27, response: .requestStatus(.unknown)),
        ServerFrame(callID: 27, response: .requestStatus(.shouldRequest)),
        ServerFrame(callID: 27, response: .requestStatus(.unnecessary)),
        ServerFrame(callID: 30, response: .earliestAuthorizedSampleDate([:])),
        ServerFrame(
            callID: 30,
            response: .earliestAuthorizedSampleDate([
                .stepCount: 1_690_000_000_000_000, .heartRate: -86_400_000_000, oddType: Int64.min, emptyType: 0,
                longType: Int64.max, .bodyMass: 1,
            ])),
        ServerFrame(callID: 32, response: .earliestPermittedSampleDate(1_600_000_000_000_000)),
        ServerFrame(callID: 32, response: .earliestPermittedSampleDate(-1)),
        ServerFrame(callID: 32, response: .earliestPermittedSampleDate(0)),
        ServerFrame(callID: 33, response: .readCharacteristics([])),
        ServerFrame(
            callID: 33,
            response: .readCharacteristics([
                CharacteristicValue(type: .dateOfBirth, value: "1990-04-01"),
                CharacteristicValue(type: .biologicalSex, value: nil),
                CharacteristicValue(type: .bloodType, value: ""),
                CharacteristicValue(type: oddType, value: unicode),
                CharacteristicValue(type: .dateOfBirth, value: nil),
            ])),
        ServerFrame(callID: 100, response: .adminAddApp(AppCredentials(app: apps[0], token: "hb_Zm9vYmFy_🔑"))),
        ServerFrame(callID: 101, response: .adminAddApp(AppCredentials(app: apps[1], token: ""))),
        ServerFrame(callID: 102, response: .adminListApps([])),
        ServerFrame(callID: 103, response: .adminListApps(apps)),
        ServerFrame(callID: 104, response: .adminRemoveApp(connectionsClosed: 0)),
        ServerFrame(callID: 105, response: .adminRemoveApp(connectionsClosed: 3)),
        ServerFrame(callID: 106, response: .adminRotateToken(AppCredentials(app: apps[2], token: "new-token"))),
        ServerFrame(callID: 107, response: .adminRotateToken(AppCredentials(app: apps[3], token: unicode))),
        ServerFrame(
            callID: 108,
            response: .adminBrokerInfo(busyBroker)),
        ServerFrame(
            callID: 109,
            response: .adminBrokerInfo(BrokerInfo(
                brokerVersion: "", startedMicros: 0, appConnections: 0, adminConnections: 0, callsServed: 0,
                dataDirectory: "", brokerTimeMicros: 0))),
        ServerFrame(callID: 111, response: .adminAnswerPrompt),
        ServerFrame(callID: 114, response: .adminCancelPrompt),
        ServerFrame(callID: 116, response: .adminListGrants([])),
        ServerFrame(callID: 116, response: .adminListGrants(grants)),
        ServerFrame(callID: 118, response: .adminRevoke(revoked: 0)),
        ServerFrame(callID: 118, response: .adminRevoke(revoked: UInt32.max)),
        ServerFrame(callID: 120, response: .adminListSources([])),
        ServerFrame(
            callID: 120,
            response: .adminListSources([
                Source(
                    appID: "com.example.steps", appName: "Steps 👣", firstRequestMicros: 1_700_000_000_000_000,
                    lastRequestMicros: 1_700_000_100_000_000, isRegistered: true),
                Source(appID: "org.example.gone", appName: unicode, firstRequestMicros: -1, lastRequestMicros: 0, isRegistered: false),
                Source(appID: "", appName: "", firstRequestMicros: Int64.min, lastRequestMicros: Int64.max, isRegistered: true),
                Source(
                    appID: "com.example.import", appName: "com.example.import", firstRequestMicros: 0, lastRequestMicros: 0,
                    isRegistered: false, sampleCount: 52_586, everAsked: false,
                    sampleCounts: [.stepCount: 52_000, .heartRate: 585, ObjectType("HKQuantityTypeIdentifierFromANewerCatalogue"): 1]),
                Source(appID: "max", appName: "m", firstRequestMicros: 1, lastRequestMicros: 2, isRegistered: true, sampleCount: UInt64.max, everAsked: true),
            ])),
        ServerFrame(callID: 121, response: .adminSetCharacteristic),
        ServerFrame(
            callID: 125,
            response: .adminExplain(Explanation(
                grant: grants[0], earliestPermittedMicros: 1_600_000_000_000_000,
                effectiveReadFromMicros: 1_690_000_000_000_000, text: "Limited: reads from 2023-07-22. \(unicode)"))),
        ServerFrame(
            callID: 126,
            response: .adminExplain(Explanation(
                grant: nil, earliestPermittedMicros: 0, effectiveReadFromMicros: nil, text: "Never asked."))),
        ServerFrame(
            callID: 127,
            response: .adminExplain(Explanation(
                grant: grants[2], earliestPermittedMicros: -1, effectiveReadFromMicros: -5, text: ""))),
        ServerFrame(
            callID: 128,
            response: .adminExplain(Explanation(
                grant: grants[4], earliestPermittedMicros: Int64.min, effectiveReadFromMicros: nil, text: "undecided"))),
        ServerFrame(callID: 140, response: .adminSetGrant(grants[0])),
        ServerFrame(callID: 141, response: .adminSetGrant(grants[2])),
        ServerFrame(callID: 142, response: .adminSetGrant(grants[4])),
        ServerFrame(callID: 150, response: .adminBackup(path: "/var/backups/healthbroker/2026-12-01 💾.sqlite", bytes: 1 << 40, pages: Int64.max)),
        ServerFrame(callID: 151, response: .adminBackup(path: "", bytes: 0, pages: 0)),
        ServerFrame(callID: 40, response: .save(saved: 15, unchanged: 0)),
        ServerFrame(callID: 41, response: .save(saved: 0, unchanged: UInt32.max)),
        ServerFrame(callID: 43, response: .delete(deleted: 0)),
        ServerFrame(callID: 44, response: .delete(deleted: 4_000_000_000)),
        ServerFrame(callID: 47, response: .streamItem(.samples(healthSamples))),
        ServerFrame(callID: 47, response: .streamItem(.samples([]))),
        ServerFrame(callID: 47, response: .streamItem(.samples(bigPage))),
        ServerFrame(callID: 47, status: .ok),
        ServerFrame(callID: 50, response: .streamItem(.anchoredPage(anchoredPage))),
        ServerFrame(callID: 50, response: .streamItem(.anchoredPage(AnchoredPage()))),
        ServerFrame(
            callID: 50,
            response: .streamItem(.anchoredPage(AnchoredPage(
                added: bigPage, deletedUUIDs: (0..<500).map { "deleted-\($0)" },
                deletedSourceAppIDs: (0..<500).map { "com.example.app\($0 % 3)" })))),
        // Deleted lists of different lengths decode as they came (the client pairs them).
        ServerFrame(
            callID: 50,
            response: .streamItem(.anchoredPage(AnchoredPage(deletedUUIDs: ["a", "b"], deletedSourceAppIDs: ["s"], done: true)))),
        ServerFrame(
            callID: 50, response: .streamItem(.anchoredPage(AnchoredPage(deletedSourceAppIDs: ["orphan", ""], newAnchor: [1])))),
        ServerFrame(
            callID: 50, response: .streamItem(.anchoredPage(AnchoredPage(newAnchor: patternBytes(64, seed: 4), done: true)))),
        ServerFrame(callID: 52, response: .statistics(statisticsResult)),
        ServerFrame(callID: 53, response: .statistics(StatisticsResult(unit: "", buckets: []))),
        ServerFrame(callID: 160, response: .adminStatistics(statisticsResult)),
        ServerFrame(callID: 161, response: .adminStatistics(StatisticsResult(unit: "", buckets: []))),
        ServerFrame(callID: 170, response: .adminSetSourcePriority),
        ServerFrame(callID: 172, response: .adminListSourcePriority(appIDs: ["com.example.watch", "com.example.phone"])),
        ServerFrame(callID: 173, response: .adminListSourcePriority(appIDs: [])),
        ServerFrame(
            callID: 174,
            response: .adminStoreInfo(StoreInfo(
                schemaVersion: 14, databaseBytes: 1 << 40, freeBytes: 4_096, walBytes: UInt64.max, maxDatabaseBytes: 64 << 20,
                samples: 12_345_678_901, tombstones: 0, apps: UInt32.max).proto)),
        ServerFrame(
            callID: 175,
            response: .adminStoreInfo(StoreInfo(
                schemaVersion: 0, databaseBytes: 0, freeBytes: 0, walBytes: 0, maxDatabaseBytes: nil, samples: 0, tombstones: 1,
                apps: 0).proto)),
        ServerFrame(callID: 57, response: .streamItem(.observed(type: .stepCount, changedMicros: 1_700_000_000_000_000))),
        ServerFrame(callID: 57, response: .streamItem(.observed(type: oddType, changedMicros: -1))),
        ServerFrame(callID: 57, response: .streamItem(.observed(type: emptyType, changedMicros: 0))),
        ServerFrame(callID: 130, response: .adminImport(saved: 12, unchanged: 3)),
        ServerFrame(callID: 131, response: .adminImport(saved: 0, unchanged: 0)),
        ServerFrame(callID: 133, response: .streamItem(.samples(Array(healthSamples.suffix(4))))),
        ServerFrame(callID: 137, response: .adminAccessLog([])),
        ServerFrame(callID: 138, response: .adminAccessLog(accessLog)),
        ServerFrame(
            callID: 9, status: Status(code: .permissionDenied, domain: .authorizationDenied, message: "denied ☂ \(unicode)")),
        ServerFrame(callID: 10, status: Status(code: .deadlineExceeded, message: "")),
        ServerFrame(callID: 11, status: Status(code: .internal, message: "no domain here")),
        ServerFrame(
            callID: 0,
            status: Status(
                code: .resourceExhausted, domain: .protocolError,
                message: "frame of 5000000 bytes exceeds the limit of 4194304 bytes")),
        ServerFrame(
            callID: 12, status: Status(code: .unavailable, domain: .brokerShuttingDown, message: "bye"),
            response: .ping(PingResponse(payload: [1]))),
        ServerFrame(callID: 13),
        ServerFrame(callID: 0),
    ]
}
