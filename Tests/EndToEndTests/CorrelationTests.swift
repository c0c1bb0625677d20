import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Correlations (blood pressure, food) over the socket: saved and queried the HealthKit way, with
/// authorization per member type, members that are ordinary samples of their own types, partial
/// read access, and a read-denied app that cannot tell its store from one holding only its own data.
@Suite("Correlations")
struct CorrelationTests {
    static let writerID = "com.example.cuff"
    static let systolicOnlyID = "com.example.bp.systolic"
    static let limitedID = "com.example.bp.limited"
    static let deniedID = "com.example.bp.denied"
    static let foodReaderID = "com.example.food.energy"

    /// The writer reads and shares everything; one reader may read systolic only (diastolic
    /// denied), one reads systolic from 2026-06-02 and never asks about diastolic, one is denied
    /// reading but may share, one reads dietary energy only.
    static let policy = """
        { "rules": [
          { "app": "\(systolicOnlyID)", "types": ["bloodPressureSystolic"], "share": "allow", "read": "full" },
          { "app": "\(systolicOnlyID)", "types": ["*"], "share": "allow", "read": "deny" },
          { "app": "\(limitedID)", "types": ["bloodPressureSystolic"], "share": "allow", "read": "limited", "from": "2026-06-02" },
          { "app": "\(deniedID)", "types": ["*"], "share": "allow", "read": "deny" },
          { "app": "\(foodReaderID)", "types": ["dietaryEnergyConsumed"], "share": "allow", "read": "full" },
          { "app": "\(foodReaderID)", "types": ["*"], "share": "allow", "read": "deny" },
          { "app": "*", "types": ["*"], "share": "allow", "read": "full" }
        ] }
        """

    static let pressureTypes: Set<ObjectType> = [.bloodPressureSystolic, .bloodPressureDiastolic]
    static let foodTypes: Set<ObjectType> = [.dietaryEnergyConsumed, .dietaryProtein]

    static func uuid() -> String { UUID().uuidString.lowercased() }

    /// A blood pressure correlation at `at` (a one-minute reading) with its two members.
    static func pressure(_ at: Int64, _ systolic: Double, _ diastolic: Double, uuid: String = uuid(), systolicUUID: String = uuid(), diastolicUUID: String = uuid(),
                         metadata: [String: String] = [:]) -> Sample {
        let end = at + 60_000_000
        return Sample(uuid: uuid, type: .bloodPressure, startMicros: at, endMicros: end, value: .correlation([
            Sample(uuid: systolicUUID, type: .bloodPressureSystolic, startMicros: at, endMicros: end, value: .quantity(Quantity(systolic, "mmHg"))),
            Sample(uuid: diastolicUUID, type: .bloodPressureDiastolic, startMicros: at, endMicros: end, value: .quantity(Quantity(diastolic, "mmHg"))),
        ]), metadata: metadata)
    }

    /// A meal: energy and protein.
    static func meal(_ at: Int64, kcal: Double, protein: Double, uuid: String = uuid()) -> Sample {
        Sample(uuid: uuid, type: .food, startMicros: at, endMicros: at + hour, value: .correlation([
            Sample(uuid: Self.uuid(), type: .dietaryEnergyConsumed, startMicros: at, endMicros: at + hour, value: .quantity(Quantity(kcal, "kcal"))),
            Sample(uuid: Self.uuid(), type: .dietaryProtein, startMicros: at, endMicros: at + hour, value: .quantity(Quantity(protein, "g"))),
        ]), metadata: ["HKFoodType": "lunch"])
    }

    static func members(_ sample: Sample?) -> [Sample] {
        if case .correlation(let members) = sample?.value { members } else { [] }
    }

    static func quantity(_ sample: Sample) -> Double? {
        if case .quantity(let quantity) = sample.value { quantity.value } else { nil }
    }

    @Test func aBloodPressureCorrelationRoundTripsWithItsUUIDsAndItsMembersAreSamplesOfTheirTypes() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy)
        let store = try await authorizedApp(daemon, Self.writerID, types: Self.pressureTypes.union(Self.foodTypes))
        defer { store.close() }
        let systolicUUID = Self.uuid(), diastolicUUID = Self.uuid()
        let reading = Self.pressure(base + hour, 121, 79, systolicUUID: systolicUUID, diastolicUUID: diastolicUUID, metadata: ["cuff": "left arm"])
        // The correlation and its two members: three samples.
        #expect(try await store.save([reading]) == SaveResult(saved: 3, unchanged: 0))
        #expect(try await store.save([reading]) == SaveResult(saved: 0, unchanged: 3))
        let plain = Sample(uuid: Self.uuid(), type: .bloodPressureSystolic, startMicros: base + 3 * hour, endMicros: base + 3 * hour,
                           value: .quantity(Quantity(17, "kPa")))
        _ = try await store.save([plain])

        let read = try await collect(store.samples(of: .bloodPressure))
        #expect(read.map(\.uuid) == [reading.uuid])
        #expect(read.first?.startMicros == reading.startMicros && read.first?.endMicros == reading.endMicros)
        #expect(read.first?.metadata == ["cuff": "left arm"])
        #expect(read.first?.sourceAppID == Self.writerID)
        let members = Self.members(read.first)
        #expect(members.map(\.uuid) == [systolicUUID, diastolicUUID])
        #expect(members.map(\.type) == [.bloodPressureSystolic, .bloodPressureDiastolic])
        #expect(members.map(Self.quantity) == [121, 79])
        #expect(members.allSatisfy { $0.sourceAppID == Self.writerID })

        // Members are ordinary samples: a query and statistics of systolic include them.
        let systolic = try await collect(store.samples(of: .bloodPressureSystolic))
        #expect(Set(systolic.map(\.uuid)) == [systolicUUID, plain.uuid])
        let statistics = try await store.statistics(StatisticsQuery(
            type: .bloodPressureSystolic, predicate: SamplePredicate(startMicros: base, endMicros: base + 24 * hour),
            options: [.average, .minimum, .maximum]))
        #expect(statistics.unit == "mmHg")
        let bucket = try #require(statistics.buckets.first)
        #expect(bucket.sampleCount == 2)
        #expect(abs((bucket.maximum ?? 0) - 127.51) < 0.01)   // 17 kPa
        #expect(bucket.minimum == 121)

        // Other content under the correlation's uuid is ALREADY_EXISTS; so is a member reused in another correlation.
        let changed = Self.pressure(base + hour, 130, 79, uuid: reading.uuid, systolicUUID: systolicUUID, diastolicUUID: diastolicUUID)
        let conflict = await #expect(throws: BrokerError.self) { try await store.save([changed]) }
        #expect(conflict?.code == .alreadyExists)
        let reused = Self.pressure(base + hour, 121, 79, systolicUUID: systolicUUID, diastolicUUID: diastolicUUID)
        let taken = await #expect(throws: BrokerError.self) { try await store.save([reused]) }
        #expect(taken?.code == .alreadyExists)
        #expect(taken?.message.contains("already belongs to another correlation") == true, "\(taken?.message ?? "")")

        // The client's Date initialiser and `objects`.
        let now = Date(microsecondsSince1970: base + 2 * hour)
        let made = Sample(correlation: .bloodPressure, objects: [
            Sample(type: .bloodPressureSystolic, quantity: Quantity(119, "mmHg"), start: now, end: now),
            Sample(type: .bloodPressureDiastolic, quantity: Quantity(77, "mmHg"), start: now, end: now),
        ], start: now, end: now)
        #expect(try await store.save([made]).saved == 3)
        let both = try await collect(store.samples(of: .bloodPressure))
        #expect(both.map(\.uuid) == [reading.uuid, made.uuid])
        #expect(both.last?.objects.map(\.uuid) == made.objects.map(\.uuid))
        #expect(try await store.delete([made.uuid] + made.objects.map(\.uuid)) == 3)

        // A food correlation, and a query by predicate and order.
        let lunch = Self.meal(base + 12 * hour, kcal: 640, protein: 31)
        let dinner = Self.meal(base + 19 * hour, kcal: 820, protein: 44)
        #expect(try await store.save([dinner, lunch]).saved == 6)
        let meals = try await collect(store.samples(of: .food, sort: SampleSort(key: .startDate, descending: true)))
        #expect(meals.map(\.uuid) == [dinner.uuid, lunch.uuid])
        #expect(Self.members(meals.first).map(Self.quantity) == [820, 44])
        let afternoon = SamplePredicate(startMicros: base + 13 * hour, endMicros: base + 24 * hour, options: .strictStartDate)
        #expect(try await collect(store.samples(of: .food, predicate: afternoon)).map(\.uuid) == [dinner.uuid])
        #expect(try await collect(store.samples(of: .food, limit: 1)).map(\.uuid) == [lunch.uuid])

        // Deleting the correlation keeps its members, as samples of their own types.
        #expect(try await store.delete([reading.uuid]) == 1)
        #expect(try await collect(store.samples(of: .bloodPressure)).isEmpty)
        #expect(Set(try await collect(store.samples(of: .bloodPressureSystolic)).map(\.uuid)) == [systolicUUID, plain.uuid])
        // Deleting by type and predicate deletes the app's own correlations in range.
        #expect(try await store.deleteSamples(of: .food, predicate: afternoon) == 1)
        #expect(try await collect(store.samples(of: .food)).map(\.uuid) == [lunch.uuid])
        // A member deleted by its uuid deletes the correlation holding it (a correlation cannot
        // change); the count is of what the call named. The other member stays, a sample of its type.
        let lunchMembers = Self.members(lunch)
        #expect(try await store.delete([lunchMembers[1].uuid]) == 1)
        #expect(try await collect(store.samples(of: .food)).isEmpty)
        // (Dinner's objects stayed when its correlation was deleted by type above.)
        let dinnerMembers = Self.members(dinner)
        #expect(Set(try await collect(store.samples(of: .dietaryEnergyConsumed)).map(\.uuid)) == [lunchMembers[0].uuid, dinnerMembers[0].uuid])
        #expect(try await collect(store.samples(of: .dietaryProtein)).map(\.uuid) == [dinnerMembers[1].uuid])
    }

    @Test func savingChecksMembersAndShareForEachMemberType() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy)
        let store = try await authorizedApp(daemon, Self.writerID, types: [.bloodPressureSystolic])
        defer { store.close() }
        // Share was asked for systolic only: diastolic is not determined.
        let unasked = await #expect(throws: BrokerError.self) { try await store.save([Self.pressure(base, 120, 80)]) }
        #expect(unasked?.code == .failedPrecondition)
        #expect(unasked?.message.contains(ObjectType.bloodPressureDiastolic.identifier) == true, "\(unasked?.message ?? "")")
        try await store.requestAuthorization(toShare: Self.pressureTypes, read: Self.pressureTypes, timeout: .seconds(10))

        func refusal(_ sample: Sample) async -> String {
            let error = await #expect(throws: BrokerError.self) { try await store.save([sample]) }
            #expect(error?.code == .invalidArgument)
            return error?.message ?? ""
        }
        var onlySystolic = Self.pressure(base, 120, 80)
        onlySystolic.value = .correlation(Array(Self.members(onlySystolic).prefix(1)))
        #expect(await refusal(onlySystolic) == "samples[0]: a blood pressure correlation holds one systolic and one diastolic sample")
        var outside = Self.pressure(base, 120, 80)
        var outsideMembers = Self.members(outside)
        outsideMembers[1].endMicros += hour
        outside.value = .correlation(outsideMembers)
        #expect(await refusal(outside) == "samples[0]: objects[1]: lies outside the correlation's start and end")
        var wrongType = Self.pressure(base, 120, 80)
        var wrongMembers = Self.members(wrongType)
        wrongMembers[1].type = .heartRate
        wrongMembers[1].value = .quantity(Quantity(60, "count/min"))
        wrongType.value = .correlation(wrongMembers)
        #expect(await refusal(wrongType).hasPrefix("samples[0]: objects[1]: HKQuantityTypeIdentifierHeartRate is not a member type of HKCorrelationTypeIdentifierBloodPressure"))
        var wrongUnit = Self.pressure(base, 120, 80)
        var unitMembers = Self.members(wrongUnit)
        unitMembers[0].value = .quantity(Quantity(120, "kg"))
        wrongUnit.value = .correlation(unitMembers)
        #expect(await refusal(wrongUnit).hasPrefix("samples[0]: objects[0]: value: unit \"kg\""))
        var empty = Self.pressure(base, 120, 80)
        empty.value = .correlation([])
        #expect(await refusal(empty) == "samples[0]: a correlation holds at least one object")
        let notACorrelation = Sample(uuid: Self.uuid(), type: .bloodPressure, startMicros: base, endMicros: base, value: .quantity(Quantity(120, "mmHg")))
        #expect(await refusal(notACorrelation).contains("is a correlation type but the value is a quantity"))
        // Nothing of the refused batches was stored.
        #expect(try await collect(store.samples(of: .bloodPressureSystolic)).isEmpty)
        // A correlation type cannot be summed (anchored queries and observers: CorrelationSyncTests).
        let sum = await #expect(throws: BrokerError.self) {
            _ = try await store.statistics(StatisticsQuery(type: .bloodPressure, predicate: .all, options: .average))
        }
        #expect(sum?.code == .invalidArgument)
    }

    @Test func aReaderWithPartialAccessSeesTheCorrelationsOfTheMembersItMayReadAndOnlyThose() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy)
        let writer = try await authorizedApp(daemon, Self.writerID, types: Self.pressureTypes.union(Self.foodTypes))
        defer { writer.close() }
        let early = Self.pressure(base + 2 * hour, 118, 76)        // 1 June
        let late = Self.pressure(base + 30 * hour, 125, 82)        // 2 June, 06:00 UTC
        let lunch = Self.meal(base + 12 * hour, kcal: 640, protein: 31)
        _ = try await writer.save([early, late, lunch])

        // Systolic full, diastolic denied: both readings, each with its systolic member only.
        let systolicOnly = try await authorizedApp(daemon, Self.systolicOnlyID, types: Self.pressureTypes)
        defer { systolicOnly.close() }
        let seen = try await collect(systolicOnly.samples(of: .bloodPressure))
        #expect(seen.map(\.uuid) == [early.uuid, late.uuid])
        #expect(seen.map { Self.members($0).map(\.uuid) } == [[Self.members(early)[0].uuid], [Self.members(late)[0].uuid]])
        // It asked about no food type at all: not determined.
        let food = await #expect(throws: BrokerError.self) { try await collect(systolicOnly.samples(of: .food)) }
        #expect(food?.code == .failedPrecondition)

        // Systolic from 2 June, diastolic never asked: the later reading only, systolic only.
        let limited = try await daemon.connectApp(Self.limitedID)
        defer { limited.close() }
        try await limited.requestAuthorization(toShare: [], read: [.bloodPressureSystolic], timeout: .seconds(10))
        let recent = try await collect(limited.samples(of: .bloodPressure))
        #expect(recent.map(\.uuid) == [late.uuid])
        #expect(Self.members(recent.first).map(\.type) == [.bloodPressureSystolic])

        // Dietary energy only: the meal, with its energy member only.
        let energy = try await authorizedApp(daemon, Self.foodReaderID, types: Self.foodTypes)
        defer { energy.close() }
        let meals = try await collect(energy.samples(of: .food))
        #expect(meals.map(\.uuid) == [lunch.uuid])
        #expect(Self.members(meals.first).map(\.type) == [.dietaryEnergyConsumed])
    }

    /// What the read-denied app asks, as bytes with clocks (created times) zeroed, the one field
    /// that must differ between two daemons.
    static func deniedTranscript(_ store: HealthStore, ownUUIDs: [String], othersUUID: String) async throws -> [[UInt8]] {
        var transcript: [[UInt8]] = []
        func record(_ samples: [Sample]) {
            var page = Proto.SamplePage()
            page.samples = samples.map { sample in
                var sample = sample
                sample.createdMicros = 0
                if case .correlation(let members) = sample.value {
                    sample.value = .correlation(members.map { var member = $0; member.createdMicros = 0; return member })
                }
                return sample.proto
            }
            transcript.append(page.encoded())
        }
        func record(_ text: String) { transcript.append(Array(text.utf8)) }
        record(try await collect(store.samples(of: .bloodPressure)))
        record(try await collect(store.samples(of: .bloodPressure, sort: SampleSort(key: .endDate, descending: true))))
        record(try await collect(store.samples(of: .bloodPressure, predicate: SamplePredicate(startMicros: base, endMicros: base + 24 * hour))))
        record(try await collect(store.samples(of: .bloodPressure, limit: 1)))
        record(try await collect(store.samples(of: .bloodPressureSystolic)))
        record(try await collect(store.samples(of: .food)))
        let statistics = try await store.statistics(StatisticsQuery(
            type: .bloodPressureSystolic, predicate: SamplePredicate(startMicros: base, endMicros: base + 72 * hour),
            options: [.average, .minimum, .maximum], interval: .day, timeZone: "UTC"))
        record("\(statistics)")
        // Another app's uuid deletes nothing, exactly as a uuid nobody holds.
        record("deleted \(try await store.delete([othersUUID, Self.uuid()]))")
        do {
            _ = try await store.anchoredChanges(of: .bloodPressure)
            record("anchored: no error")
        } catch {
            record("anchored: \(error.code) \(error.message)")
        }
        record("earliest \(try await store.earliestAuthorizedSampleDate(for: [.bloodPressureSystolic, .bloodPressureDiastolic]))")
        _ = ownUUIDs
        return transcript
    }

    @Test func aReadDeniedAppSeesOnlyItsOwnCorrelationsAndCannotTellOthersExist() async throws {
        let ownFirst = Self.pressure(base + 5 * hour, 131, 85)
        let ownSecond = Self.pressure(base + 29 * hour, 127, 83)
        let ownMeal = Self.meal(base + 13 * hour, kcal: 500, protein: 20)
        /// Starts a daemon; `crowded` adds another app's many correlations around the denied app's own.
        func run(crowded: Bool) async throws -> (transcript: [[UInt8]], othersUUID: String) {
            let daemon = try await DaemonProcess(policy: Self.policy)
            var othersUUID = Self.uuid()
            if crowded {
                let writer = try await authorizedApp(daemon, Self.writerID, types: Self.pressureTypes.union(Self.foodTypes))
                defer { writer.close() }
                var batch: [Sample] = []
                for index in 0..<300 {
                    let at = base + Int64(index) * 15 * 60_000_000
                    batch.append(Self.pressure(at, 110 + Double(index % 30), 70 + Double(index % 20)))
                    if index % 10 == 0 { batch.append(Self.meal(at, kcal: 300, protein: 10)) }
                }
                _ = try await writer.save(batch)
                othersUUID = batch[0].uuid
                // Not vacuous: the others' correlations are there, and a reader with access sees them.
                #expect(try await collect(writer.samples(of: .bloodPressure)).count == 300)
                #expect(try await collect(writer.samples(of: .food)).count == 30)
            }
            let denied = try await authorizedApp(daemon, Self.deniedID, types: Self.pressureTypes.union(Self.foodTypes))
            defer { denied.close() }
            _ = try await denied.save([ownFirst, ownSecond, ownMeal])
            return (try await Self.deniedTranscript(denied, ownUUIDs: [ownFirst.uuid, ownSecond.uuid], othersUUID: othersUUID), othersUUID)
        }
        let crowded = try await run(crowded: true)
        let alone = try await run(crowded: false)
        #expect(crowded.transcript.count == alone.transcript.count)
        for (index, (a, b)) in zip(crowded.transcript, alone.transcript).enumerated() {
            #expect(a == b, "entry \(index) differs: \(String(decoding: a, as: UTF8.self)) vs \(String(decoding: b, as: UTF8.self))")
        }
        // And what it sees is its own: both readings with both members, and its meal.
        let daemon = try await DaemonProcess(policy: Self.policy)
        let denied = try await authorizedApp(daemon, Self.deniedID, types: Self.pressureTypes.union(Self.foodTypes))
        defer { denied.close() }
        _ = try await denied.save([ownFirst, ownSecond, ownMeal])
        let own = try await collect(denied.samples(of: .bloodPressure))
        #expect(own.map(\.uuid) == [ownFirst.uuid, ownSecond.uuid])
        #expect(own.map { Self.members($0).count } == [2, 2])
    }

    @Test func anAppleHealthExportsCorrelationsImportAsCorrelationsOnce() async throws {
        let daemon = try await DaemonProcess(policy: Self.policy)
        let path = daemon.directory + "/export.xml"
        let at = "2026-06-01 08:00:00 +0200"
        func record(_ type: String, _ value: String, _ unit: String) -> String {
            "  <Record type=\"\(type)\" unit=\"\(unit)\" value=\"\(value)\" sourceName=\"Cuff\" startDate=\"\(at)\" endDate=\"\(at)\"/>\n"
        }
        let members = record("HKQuantityTypeIdentifierBloodPressureSystolic", "122", "mmHg")
            + record("HKQuantityTypeIdentifierBloodPressureDiastolic", "81", "mmHg")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2026-06-02 10:00:00 +0200"/>
            \(members) <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="\(at)" endDate="\(at)">
            \(members) </Correlation>
            </HealthData>

            """
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        let first = try await SetGrantTests.healthctl(daemon, ["import", "--format", "apple-health", path])
        try #require(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("1 correlations"), "\(first.output)")
        let again = try await SetGrantTests.healthctl(daemon, ["import", "--format", "apple-health", path])
        try #require(again.status == 0, "\(again.errors)")
        let reader = try await authorizedApp(daemon, Self.writerID, types: Self.pressureTypes)
        defer { reader.close() }
        let read = try await collect(reader.samples(of: .bloodPressure))
        #expect(read.count == 1)
        #expect(Self.members(read.first).map(Self.quantity) == [122, 81])
        #expect(read.first?.startMicros == base + 6 * hour)
        // The members once each, as samples of their types.
        #expect(try await collect(reader.samples(of: .bloodPressureSystolic)).count == 1)
    }
}
