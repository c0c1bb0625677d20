import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Anchored queries and observers of correlation types over the socket, as HKAnchoredObjectQuery
/// and HKObserverQuery do for an HKCorrelationType: added correlations showing only the objects
/// the app may read, deletions of correlations it could have seen, opaque anchors that move only
/// for those, and a read-denied app that cannot tell its store from one holding only its own data.
@Suite("Correlation sync")
struct CorrelationSyncTests {
    typealias C = CorrelationTests

    @Test func anchoredChangesOfBloodPressureFollowTheMemberTypesTheAppMayRead() async throws {
        let daemon = try await DaemonProcess(policy: C.policy)
        let writer = try await authorizedApp(daemon, C.writerID, types: C.pressureTypes.union(C.foodTypes))
        defer { writer.close() }
        let early = C.pressure(base + 2 * hour, 118, 76)        // 1 June
        let late = C.pressure(base + 30 * hour, 125, 82)        // 2 June, 06:00 UTC
        let lunch = C.meal(base + 12 * hour, kcal: 640, protein: 31)
        _ = try await writer.save([early, late, lunch])

        // The writer: both readings, whole, in the order saved; nothing more from the anchor.
        let all = try await writer.anchoredChanges(of: .bloodPressure)
        #expect(all.added.map(\.uuid) == [early.uuid, late.uuid] && all.deleted.isEmpty)
        #expect(all.added.map { $0.objects.map(\.uuid) } == [early.objects.map(\.uuid), late.objects.map(\.uuid)])
        #expect(all.added.first?.objects.map(C.quantity) == [118, 76])
        let quiet = try await writer.anchoredChanges(of: .bloodPressure, anchor: all.newAnchor)
        #expect(quiet.added.isEmpty && quiet.deleted.isEmpty && quiet.newAnchor == all.newAnchor)
        // A limit of one, then the rest from its anchor.
        let first = try await writer.anchoredChanges(of: .bloodPressure, limit: 1)
        #expect(first.added.map(\.uuid) == [early.uuid])
        #expect(try await writer.anchoredChanges(of: .bloodPressure, anchor: first.newAnchor).added.map(\.uuid) == [late.uuid])
        // Food is its own type with its own anchor.
        let meals = try await writer.anchoredChanges(of: .food)
        #expect(meals.added.map(\.uuid) == [lunch.uuid] && meals.added.first?.objects.count == 2)
        let crossed = await #expect(throws: BrokerError.self) { _ = try await writer.anchoredChanges(of: .food, anchor: all.newAnchor) }
        #expect(crossed?.code == .invalidArgument)
        let unit = await #expect(throws: BrokerError.self) { _ = try await writer.anchoredChanges(of: .bloodPressure, unit: "mmHg") }
        #expect(unit?.code == .invalidArgument)

        // Systolic full, diastolic denied: the systolic objects only.
        let systolicOnly = try await authorizedApp(daemon, C.systolicOnlyID, types: C.pressureTypes)
        defer { systolicOnly.close() }
        let partial = try await systolicOnly.anchoredChanges(of: .bloodPressure)
        #expect(partial.added.map(\.uuid) == [early.uuid, late.uuid])
        #expect(partial.added.map { $0.objects.map(\.type) } == [[.bloodPressureSystolic], [.bloodPressureSystolic]])
        // Never asked about a food type: not determined.
        let food = await #expect(throws: BrokerError.self) { _ = try await systolicOnly.anchoredChanges(of: .food) }
        #expect(food?.code == .failedPrecondition)

        // Systolic from 2 June: the later reading only.
        let limited = try await daemon.connectApp(C.limitedID)
        defer { limited.close() }
        try await limited.requestAuthorization(toShare: [], read: [.bloodPressureSystolic], timeout: .seconds(10))
        let recent = try await limited.anchoredChanges(of: .bloodPressure)
        #expect(recent.added.map(\.uuid) == [late.uuid])

        // The writer deletes the early reading (its objects stay) and saves a third.
        let third = C.pressure(base + 40 * hour, 122, 80)
        #expect(try await writer.delete([early.uuid]) == 1)
        _ = try await writer.save([third])
        let after = try await systolicOnly.anchoredChanges(of: .bloodPressure, anchor: partial.newAnchor)
        #expect(after.added.map(\.uuid) == [third.uuid])
        #expect(after.deleted == [DeletedObject(uuid: early.uuid, sourceAppID: C.writerID)])
        // The limited reader never saw the early reading: only the third is news to it.
        let limitedAfter = try await limited.anchoredChanges(of: .bloodPressure, anchor: recent.newAnchor)
        #expect(limitedAfter.added.map(\.uuid) == [third.uuid] && limitedAfter.deleted.isEmpty)
        // The early reading's objects are still samples of their types.
        #expect(try await collect(writer.samples(of: .bloodPressureSystolic)).map(\.uuid).contains(early.objects[0].uuid))

        // Dietary energy only: the meal with its energy object; a deletion of it is reported.
        let energy = try await authorizedApp(daemon, C.foodReaderID, types: C.foodTypes)
        defer { energy.close() }
        let energyMeals = try await energy.anchoredChanges(of: .food)
        #expect(energyMeals.added.map { $0.objects.map(\.type) } == [[.dietaryEnergyConsumed]])
        // A meal with protein only is not the energy reader's to see, added or deleted.
        let snack = Sample(uuid: C.uuid(), type: .food, startMicros: base + 15 * hour, endMicros: base + 15 * hour, value: .correlation([
            Sample(uuid: C.uuid(), type: .dietaryProtein, startMicros: base + 15 * hour, endMicros: base + 15 * hour, value: .quantity(Quantity(8, "g"))),
        ]))
        _ = try await writer.save([snack])
        #expect(try await writer.delete([snack.uuid, lunch.uuid]) == 2)
        let energyAfter = try await energy.anchoredChanges(of: .food, anchor: energyMeals.newAnchor)
        #expect(energyAfter.added.isEmpty && energyAfter.deleted.map(\.uuid) == [lunch.uuid])
    }

    /// A correlation cannot change (HKCorrelation is immutable; an anchored query reports objects
    /// added or deleted, never changed): deleting one of its objects deletes it, and every reader
    /// that could see it (through any of its objects) is told, once; readers that could not, never.
    @Test func deletingAnObjectAloneDeletesItsCorrelationForTheReadersWhoCouldSeeIt() async throws {
        let daemon = try await DaemonProcess(policy: C.policy)
        let writer = try await authorizedApp(daemon, C.writerID, types: C.pressureTypes)
        defer { writer.close() }
        let early = C.pressure(base + 2 * hour, 118, 76)        // 1 June
        let late = C.pressure(base + 30 * hour, 125, 82)        // 2 June, 06:00 UTC
        let third = C.pressure(base + 40 * hour, 122, 80)
        _ = try await writer.save([early, late, third])
        let systolicOnly = try await authorizedApp(daemon, C.systolicOnlyID, types: C.pressureTypes)
        defer { systolicOnly.close() }
        let limited = try await daemon.connectApp(C.limitedID)
        defer { limited.close() }
        try await limited.requestAuthorization(toShare: [], read: [.bloodPressureSystolic], timeout: .seconds(10))

        // An observer of blood pressure that may not read diastolic, known to be registered once it
        // has heard of one of its own readings (saved days before the others; left out below).
        let events = OrderLog()
        let observing = Task { for try await change in systolicOnly.observe([.bloodPressure]) { events.append(change.type.identifier) } }
        defer { observing.cancel() }
        var warmUps = Set<String>()
        while events.entries.isEmpty && warmUps.count < 60 {
            let warmUp = C.pressure(base - 100 * hour + Int64(warmUps.count) * hour, 110, 70)
            _ = try await systolicOnly.save([warmUp])
            warmUps.formUnion([warmUp.uuid] + warmUp.objects.map(\.uuid))
            for _ in 0..<500 where events.entries.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        }
        try #require(!events.entries.isEmpty, "the observer never heard of its own reading")
        let heard = events.entries.count
        func uuids(_ samples: [Sample]) -> [String] { samples.map(\.uuid).filter { !warmUps.contains($0) } }

        let writerStart = try await writer.anchoredChanges(of: .bloodPressure)
        let diastolicStart = try await writer.anchoredChanges(of: .bloodPressureDiastolic)
        let partialStart = try await systolicOnly.anchoredChanges(of: .bloodPressure)
        let limitedStart = try await limited.anchoredChanges(of: .bloodPressure)
        #expect(uuids(partialStart.added) == [early.uuid, late.uuid, third.uuid])
        #expect(limitedStart.added.map(\.uuid) == [late.uuid, third.uuid])

        // The early reading's diastolic object alone: the reading goes, its systolic object stays.
        #expect(try await writer.delete([early.objects[1].uuid]) == 1)
        let writerAfter = try await writer.anchoredChanges(of: .bloodPressure, anchor: writerStart.newAnchor)
        #expect(writerAfter.added.isEmpty && writerAfter.deleted == [DeletedObject(uuid: early.uuid, sourceAppID: C.writerID)])
        let diastolicAfter = try await writer.anchoredChanges(of: .bloodPressureDiastolic, anchor: diastolicStart.newAnchor)
        #expect(diastolicAfter.deleted.map(\.uuid) == [early.objects[1].uuid])
        #expect(uuids(try await collect(writer.samples(of: .bloodPressure))) == [late.uuid, third.uuid])
        #expect(try await collect(writer.samples(of: .bloodPressureSystolic)).map(\.uuid).contains(early.objects[0].uuid))
        // The systolic-only reader could see the reading (its systolic object): told, though the
        // object deleted is one it may not read, and its observer of blood pressure hears of it.
        let partialAfter = try await systolicOnly.anchoredChanges(of: .bloodPressure, anchor: partialStart.newAnchor)
        #expect(partialAfter.added.isEmpty && partialAfter.deleted.map(\.uuid) == [early.uuid])
        #expect(uuids(try await collect(systolicOnly.samples(of: .bloodPressure))) == [late.uuid, third.uuid])
        try await waitUntil { events.entries.count > heard }
        // The reader limited to 2 June never saw the early reading: not told, its anchor stays.
        let limitedAfter = try await limited.anchoredChanges(of: .bloodPressure, anchor: limitedStart.newAnchor)
        #expect(limitedAfter.added.isEmpty && limitedAfter.deleted.isEmpty && limitedAfter.newAnchor == limitedStart.newAnchor)

        // The late reading's systolic object: the limited reader saw that reading, and is told.
        // The third reading with one of its objects in one call: reported once.
        #expect(try await writer.delete([late.objects[0].uuid, third.uuid, third.objects[0].uuid]) == 3)
        let limitedLast = try await limited.anchoredChanges(of: .bloodPressure, anchor: limitedStart.newAnchor)
        #expect(limitedLast.added.isEmpty && limitedLast.deleted.map(\.uuid) == [third.uuid, late.uuid])
        let partialLast = try await systolicOnly.anchoredChanges(of: .bloodPressure, anchor: partialAfter.newAnchor)
        #expect(partialLast.deleted.map(\.uuid) == [third.uuid, late.uuid])
        #expect(uuids(try await collect(systolicOnly.samples(of: .bloodPressure))).isEmpty)
        // The objects not named stay, as samples of their types.
        #expect(uuids(try await collect(writer.samples(of: .bloodPressureDiastolic))) == [late.objects[1].uuid, third.objects[1].uuid])
    }

    @Test func observersOfACorrelationTypeHearOnlyOfCorrelationsTheyCouldSee() async throws {
        let daemon = try await DaemonProcess(policy: C.policy)
        let writer = try await authorizedApp(daemon, C.writerID, types: C.pressureTypes.union(C.foodTypes))
        defer { writer.close() }
        let denied = try await authorizedApp(daemon, C.deniedID, types: C.pressureTypes.union(C.foodTypes))
        defer { denied.close() }
        let energy = try await authorizedApp(daemon, C.foodReaderID, types: C.foodTypes)
        defer { energy.close() }
        let deniedEvents = OrderLog(), energyEvents = OrderLog()
        let deniedTask = Task { for try await change in denied.observe([.bloodPressure]) { deniedEvents.append(change.type.identifier) } }
        let energyTask = Task { for try await change in energy.observe([.food]) { energyEvents.append(change.type.identifier) } }
        defer { deniedTask.cancel(); energyTask.cancel() }
        try await Task.sleep(for: .milliseconds(150))
        // Another app's reading, and a meal of protein only: neither observer may see them.
        let reading = C.pressure(base, 120, 80)
        let snack = Sample(uuid: C.uuid(), type: .food, startMicros: base, endMicros: base, value: .correlation([
            Sample(uuid: C.uuid(), type: .dietaryProtein, startMicros: base, endMicros: base, value: .quantity(Quantity(8, "g"))),
        ]))
        _ = try await writer.save([reading, snack])
        #expect(try await writer.delete([reading.uuid, snack.uuid]) == 2)
        try await Task.sleep(for: .milliseconds(300))
        #expect(deniedEvents.entries.isEmpty && energyEvents.entries.isEmpty)
        // Its own reading the denied app may always see; a meal with energy the energy reader may.
        _ = try await denied.save([C.pressure(base + hour, 119, 79)])
        _ = try await writer.save([C.meal(base + 2 * hour, kcal: 400, protein: 12)])
        try await waitUntil { deniedEvents.entries == [ObjectType.bloodPressure.identifier] && energyEvents.entries == [ObjectType.food.identifier] }
        // Observing a correlation type needs a request to read one of its member types.
        let writerOnly = try await authorizedApp(daemon, "com.example.pressure.only", types: C.pressureTypes)
        defer { writerOnly.close() }
        let refused = await #expect(throws: BrokerError.self) { for try await _ in writerOnly.observe([.food]) { break } }
        #expect(refused?.code == .failedPrecondition)
    }

    /// The read-denied app's anchored correlation calls, as bytes: pages with clocks zeroed and each
    /// anchor as the index of its first appearance (two daemons hold different anchor keys).
    final class Transcript {
        var entries: [[UInt8]] = []
        var anchors: [[UInt8]: Int] = [:]

        func record(_ changes: AnchoredChanges) {
            var page = Proto.AnchoredPage()
            page.added = changes.added.map { sample in
                var sample = sample
                sample.createdMicros = 0
                sample.value = .correlation(sample.objects.map { var object = $0; object.createdMicros = 0; return object })
                return sample.proto
            }
            page.deletedUUIDs = changes.deleted.map(\.uuid)
            page.deletedSourceAppIDs = changes.deleted.map(\.sourceAppID)
            let index = anchors[changes.newAnchor.bytes] ?? anchors.count
            anchors[changes.newAnchor.bytes] = index
            page.newAnchor = Array("anchor#\(index)".utf8)
            entries.append(page.encoded())
        }

        func record(_ text: String) { entries.append(Array(text.utf8)) }
    }

    @Test func aReadDeniedAppsAnchoredCorrelationsCannotTellOthersExist() async throws {
        let own = [C.pressure(base + 5 * hour, 131, 85), C.pressure(base + 29 * hour, 127, 83)]
        let ownMeal = C.meal(base + 13 * hour, kcal: 500, protein: 20)
        let later = C.pressure(base + 50 * hour, 124, 81)
        /// Runs the denied app's script; `crowded` adds another app's correlations, saved and deleted around its calls.
        func run(crowded: Bool) async throws -> (transcript: Transcript, anchorsStayed: Bool) {
            let daemon = try await DaemonProcess(policy: C.policy)
            let writer = try await authorizedApp(daemon, C.writerID, types: C.pressureTypes.union(C.foodTypes))
            defer { writer.close() }
            func othersAct(_ round: Int) async throws {
                guard crowded else { return }
                var batch: [Sample] = []
                for index in 0..<150 {
                    let at = base + Int64(index) * 15 * 60_000_000 + Int64(round) * 60_000_000
                    batch.append(C.pressure(at, 110 + Double(index % 30), 70 + Double(index % 20)))
                    if index % 10 == 0 { batch.append(C.meal(at, kcal: 300, protein: 10)) }
                }
                _ = try await writer.save(batch)
                #expect(try await writer.delete(batch.prefix(40).map(\.uuid)) == 40)
                // And objects alone, which delete the readings holding them.
                #expect(try await writer.delete(batch[60..<70].map { $0.objects[0].uuid }) == 10)
                // Not vacuous: a reader with access sees the others' correlations.
                #expect(try await writer.anchoredChanges(of: .bloodPressure).added.count >= 100)
            }
            let transcript = Transcript()
            try await othersAct(0)
            let credentials = try await daemon.registerApp(C.deniedID)
            let denied = try await HealthStore.connect(socketPath: daemon.appSocket, appID: C.deniedID, appToken: credentials.token)
            defer { denied.close() }
            let types = C.pressureTypes.union(C.foodTypes)
            try await denied.requestAuthorization(toShare: types, read: types, timeout: .seconds(10))
            _ = try await denied.save(own + [ownMeal])
            let first = try await denied.anchoredChanges(of: .bloodPressure)
            transcript.record(first)
            transcript.record(try await denied.anchoredChanges(of: .food))
            transcript.record(try await denied.anchoredChanges(of: .bloodPressure, limit: 1))
            transcript.record(try await denied.anchoredChanges(of: .bloodPressure, predicate: SamplePredicate(startMicros: base, endMicros: base + 24 * hour)))
            try await othersAct(1)
            // Others acted: the same anchor back, nothing new.
            let quiet = try await denied.anchoredChanges(of: .bloodPressure, anchor: first.newAnchor)
            transcript.record(quiet)
            // Its own deletions and save are news: a reading, and another by its diastolic object.
            #expect(try await denied.delete([own[0].uuid, own[1].objects[1].uuid]) == 2)
            _ = try await denied.save([later])
            try await othersAct(2)
            let moved = try await denied.anchoredChanges(of: .bloodPressure, anchor: quiet.newAnchor)
            transcript.record(moved)
            #expect(moved.added.map(\.uuid) == [later.uuid] && moved.deleted.map(\.uuid) == [own[0].uuid, own[1].uuid])
            let still = try await denied.anchoredChanges(of: .bloodPressure, anchor: moved.newAnchor)
            transcript.record(still)
            // Pruning every tombstone (others' too) leaves its anchor valid.
            try await daemon.stop()
            try await daemon.start(arguments: ["--tombstone-retention-days", "0"])
            let reopened = try await HealthStore.connect(socketPath: daemon.appSocket, appID: C.deniedID, appToken: credentials.token)
            defer { reopened.close() }
            do {
                transcript.record(try await reopened.anchoredChanges(of: .bloodPressure, anchor: still.newAnchor))
            } catch {
                transcript.record("after pruning: \(error.code) \(error.message)")
            }
            return (transcript, quiet.newAnchor == first.newAnchor && still.newAnchor == moved.newAnchor)
        }
        let crowded = try await run(crowded: true)
        let alone = try await run(crowded: false)
        #expect(crowded.anchorsStayed && alone.anchorsStayed)
        #expect(crowded.transcript.entries.count == alone.transcript.entries.count)
        for (index, (a, b)) in zip(crowded.transcript.entries, alone.transcript.entries).enumerated() {
            #expect(a == b, "entry \(index) differs: \(a.count) vs \(b.count) bytes")
        }
    }
}

/// `healthctl export` then `healthctl import` into a fresh broker: correlations come back as
/// correlations, with their objects, uuids and metadata, under their sources.
@Suite("Correlation export and import")
struct CorrelationExportTests {
    typealias C = CorrelationTests

    /// Every stored item as text (created times left out), sorted: a correlation with its objects.
    static func stored(_ daemon: DaemonProcess) async throws -> [String] {
        let admin = try await daemon.admin()
        defer { admin.close() }
        func text(_ sample: Sample) -> String {
            var value = "\(sample.value)"
            if case .correlation(let objects) = sample.value { value = "[" + objects.map(text).joined(separator: "; ") + "]" }
            return "\(sample.uuid) \(sample.type.identifier) \(sample.startMicros)-\(sample.endMicros) \(value) \(sample.metadata) \(sample.sourceAppID)"
        }
        return try await collect(admin.exportSamples()).map(text).sorted()
    }

    @Test func bloodPressureAndFoodCorrelationsSurviveAnExportAndImport() async throws {
        let origin = try await DaemonProcess(policy: allowAll)
        let cuff = try await authorizedApp(origin, C.writerID, types: C.pressureTypes.union(C.foodTypes).union([.stepCount]))
        defer { cuff.close() }
        let diary = try await authorizedApp(origin, C.foodReaderID, types: C.foodTypes)
        defer { diary.close() }
        let readings = [C.pressure(base + hour, 121, 79, metadata: ["cuff": "left arm"]), C.pressure(base + 9 * hour, 133, 88)]
        let lunch = C.meal(base + 12 * hour, kcal: 640, protein: 31)
        let dinner = C.meal(base + 19 * hour, kcal: 820, protein: 44)
        let plain = Sample(uuid: C.uuid(), type: .bloodPressureSystolic, startMicros: base + 3 * hour, endMicros: base + 3 * hour,
                           value: .quantity(Quantity(117, "mmHg")))
        _ = try await cuff.save(readings + [lunch, plain, stepSample(base, base + hour, 40)])
        _ = try await diary.save([dinner])
        // A correlation that lost an object is deleted; its other object stays, a plain sample.
        #expect(try await cuff.delete([lunch.objects[1].uuid]) == 1)
        let exported = try await Self.stored(origin)
        // Three correlations (objects inside them), lunch's energy, the plain systolic sample and the steps.
        #expect(exported.count == 6, "\(exported)")
        let file = origin.directory + "/correlations.jsonl"
        let export = try await SetGrantTests.healthctl(origin, ["export", "--output", file])
        #expect(export.status == 0, "\(export.errors)")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6 && lines.filter { $0.contains("\"objects\"") }.count == 3)

        let target = try await DaemonProcess(policy: allowAll)
        let credentials = try await target.registerApp(C.writerID)
        _ = try await target.registerApp(C.foodReaderID)
        let imported = try await SetGrantTests.healthctl(target, ["import", file, "--keep-sources"])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(try await Self.stored(target) == exported)
        // Importing again stores nothing twice.
        let again = try await SetGrantTests.healthctl(target, ["import", file, "--keep-sources"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(try await Self.stored(target) == exported)
        // The apps see them as correlations, and their objects as samples of their types.
        let reader = try await HealthStore.connect(socketPath: target.appSocket, appID: C.writerID, appToken: credentials.token)
        defer { reader.close() }
        let types = C.pressureTypes.union(C.foodTypes)
        try await reader.requestAuthorization(toShare: types, read: types, timeout: .seconds(10))
        let pressures = try await collect(reader.samples(of: .bloodPressure))
        #expect(pressures.map(\.uuid) == readings.map(\.uuid))
        #expect(pressures.map { $0.objects.map(\.uuid) } == readings.map { $0.objects.map(\.uuid) })
        #expect(pressures.first?.metadata == ["cuff": "left arm"])
        let meals = try await collect(reader.samples(of: .food))
        #expect(meals.map(\.uuid) == [dinner.uuid])
        #expect(meals.map { $0.objects.count } == [2])
        #expect(meals.map(\.sourceAppID) == [C.foodReaderID])
        #expect(try await collect(reader.samples(of: .dietaryEnergyConsumed)).map(\.uuid).contains(lunch.objects[0].uuid))
        #expect(Set(try await collect(reader.samples(of: .bloodPressureSystolic)).map(\.uuid)) == Set(readings.map { $0.objects[0].uuid } + [plain.uuid]))
        // Exporting one member type gives its samples, objects of correlations included.
        let systolicFile = origin.directory + "/systolic.jsonl"
        let systolic = try await SetGrantTests.healthctl(origin, ["export", "--type", "bloodPressureSystolic", "--output", systolicFile])
        #expect(systolic.status == 0, "\(systolic.errors)")
        #expect(try String(contentsOfFile: systolicFile, encoding: .utf8).split(separator: "\n").count == 3)
        // And one correlation type, its correlations only.
        let foodFile = origin.directory + "/food.jsonl"
        let food = try await SetGrantTests.healthctl(origin, ["export", "--type", "food", "--output", foodFile])
        #expect(food.status == 0, "\(food.errors)")
        #expect(try String(contentsOfFile: foodFile, encoding: .utf8).split(separator: "\n").count == 1)
    }
}
