import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// A policy that lets every app share and fully read everything.
let allowAll = #"{ "rules": [ { "app": "*", "share": "allow", "read": "full" } ] }"#
let hour: Int64 = 3_600_000_000
/// 2026-06-01T00:00:00Z in µs: a base instant well after the default store floor.
let base: Int64 = 1_780_272_000_000_000

func stepSample(_ start: Int64, _ end: Int64, _ value: Double = 10, uuid: String = UUID().uuidString.lowercased()) -> Sample {
    Sample(uuid: uuid, type: .stepCount, startMicros: start, endMicros: end, value: .quantity(Quantity(value, "count")))
}

/// Opens an app session and asks (under the daemon's policy) for share and read access to `types`.
func authorizedApp(_ daemon: DaemonProcess, _ appID: String, types: Set<ObjectType> = [.stepCount, .heartRate, .distanceWalkingRunning]) async throws -> HealthStore {
    let store = try await daemon.connectApp(appID)
    try await store.requestAuthorization(toShare: types, read: types, timeout: .seconds(10))
    return store
}

func collect(_ sequence: SampleSequence) async throws -> [Sample] {
    var result: [Sample] = []
    for try await sample in sequence { result.append(sample) }
    return result
}

/// Saving, idempotence, predicates, sorting, units.
@Suite("Samples")
struct SampleTests {
    @Test func everyPredicateOptionHoldsAtItsExactBoundaries() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.bounds")
        defer { store.close() }
        let start = base, end = base + 10 * hour
        let endsAtStart = stepSample(start - hour, start)           // touches the range start
        let startsAtEnd = stepSample(end, end + hour)               // touches the range end
        let inside = stepSample(start + hour, start + 2 * hour)
        let straddlesStart = stepSample(start - hour, start + hour)
        let straddlesEnd = stepSample(end - hour, end + hour)
        _ = try await store.save([endsAtStart, startsAtEnd, inside, straddlesStart, straddlesEnd])
        func uuids(_ options: SamplePredicate.Options) async throws -> Set<String> {
            let predicate = SamplePredicate(startMicros: start, endMicros: end, options: options)
            return Set(try await collect(store.samples(of: .stepCount, predicate: predicate)).map(\.uuid))
        }
        #expect(try await uuids([]) == [endsAtStart.uuid, inside.uuid, straddlesStart.uuid, straddlesEnd.uuid])
        #expect(try await uuids(.strictStartDate) == [inside.uuid, straddlesEnd.uuid])
        #expect(try await uuids(.strictEndDate) == [endsAtStart.uuid, inside.uuid, straddlesStart.uuid])
        #expect(try await uuids([.strictStartDate, .strictEndDate]) == [inside.uuid])
    }

    @Test func concurrentSavesThatShareACommitEachGetTheirOwnOutcome() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.group")
        defer { store.close() }
        let taken = stepSample(base, base + 60_000_000, 5)
        _ = try await store.save([taken])
        // Forty saves in flight at once (the worker groups those queued together into one
        // transaction); every fifth reuses a stored uuid with other content and must fail alone.
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<40 {
                group.addTask {
                    var batch = (0..<50).map { stepSample(base + Int64(index * 50 + $0 + 1) * 60_000_000, base + Int64(index * 50 + $0 + 2) * 60_000_000) }
                    if index % 5 == 0 { batch.append(stepSample(base, base + 60_000_000, 6, uuid: taken.uuid)) }
                    do {
                        let result = try await store.save(batch)
                        return (index, result.saved == 50)
                    } catch {
                        return (index, false)
                    }
                }
            }
            var outcomes: [Int: Bool] = [:]
            for await (index, ok) in group { outcomes[index] = ok }
            return outcomes
        }
        #expect(outcomes.count == 40)
        #expect(outcomes.filter { $0.value }.keys.sorted() == (0..<40).filter { $0 % 5 != 0 })
        #expect(try await collect(store.samples(of: .stepCount)).count == 1 + 32 * 50)
    }

    @Test func limitOneWithDescendingSortReturnsTheNewest() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.newest")
        defer { store.close() }
        let samples = (0..<20).map { stepSample(base + Int64($0) * hour, base + Int64($0) * hour + 60_000_000) }
        _ = try await store.save(samples.shuffled())
        let newest = try await collect(store.samples(of: .stepCount, limit: 1, sort: SampleSort(key: .startDate, descending: true)))
        #expect(newest.map(\.uuid) == [samples.last!.uuid])
        let oldestByEnd = try await collect(store.samples(of: .stepCount, limit: 1, sort: SampleSort(key: .endDate)))
        #expect(oldestByEnd.map(\.uuid) == [samples.first!.uuid])
        let all = try await collect(store.samples(of: .stepCount, pageSize: 3))
        #expect(all.map(\.uuid) == samples.map(\.uuid))
    }

    @Test func savesAreIdempotentAndConflictsAreAlreadyExists() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.idem")
        defer { store.close() }
        let sample = stepSample(base, base + hour, 42)
        #expect(try await store.save([sample]) == SaveResult(saved: 1, unchanged: 0))
        #expect(try await store.save([sample]) == SaveResult(saved: 0, unchanged: 1))
        var changed = sample
        changed.value = .quantity(Quantity(43, "count"))
        let error = await #expect(throws: BrokerError.self) { _ = try await store.save([stepSample(base, base + hour), changed]) }
        #expect(error?.code == .alreadyExists)
        #expect(error?.message.contains("samples[1]") == true)
        // All or nothing: the valid first sample of the refused batch was not stored.
        #expect(try await collect(store.samples(of: .stepCount)).count == 1)
        let invalid = await #expect(throws: BrokerError.self) {
            _ = try await store.save([stepSample(base, base + hour), stepSample(base + hour, base)])
        }
        #expect(invalid?.code == .invalidArgument)
        #expect(invalid?.message.contains("samples[1]") == true)
        #expect(try await collect(store.samples(of: .stepCount)).count == 1)
    }

    @Test func unitsConvertWithinADimensionAndAWrongDimensionIsRefused() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let store = try await authorizedApp(daemon, "com.example.units")
        defer { store.close() }
        let run = Sample(uuid: UUID().uuidString.lowercased(), type: .distanceWalkingRunning, startMicros: base, endMicros: base + hour, value: .quantity(Quantity(5, "km")))
        _ = try await store.save([run])
        let inMiles = try await collect(store.samples(of: .distanceWalkingRunning, unit: "mi"))
        guard case .quantity(let quantity) = inMiles.first?.value else { Issue.record("no quantity"); return }
        #expect(quantity.unit == "mi")
        #expect(abs(quantity.value - 5_000 / 1_609.344) < 1e-9)
        let wrong = await #expect(throws: BrokerError.self) {
            _ = try await store.save([Sample(uuid: UUID().uuidString.lowercased(), type: .distanceWalkingRunning, startMicros: base, endMicros: base + hour, value: .quantity(Quantity(5, "kg")))])
        }
        #expect(wrong?.code == .invalidArgument)
    }

    @Test func savingNeedsShareAuthorizationAndRespectsTheStoreFloor() async throws {
        let policy = #"{ "rules": [ { "app": "com.example.denied", "share": "deny", "read": "deny" }, { "app": "com.example.allowed", "share": "allow", "read": "full" } ] }"#
        let daemon = try await DaemonProcess(extraArguments: ["--earliest-permitted-date", "2025-01-01"], policy: policy)
        let never = try await daemon.connectApp("com.example.never")
        defer { never.close() }
        let notDetermined = await #expect(throws: BrokerError.self) { _ = try await never.save([stepSample(base, base + hour)]) }
        #expect(notDetermined?.domain == .authorizationNotDetermined)
        let denied = try await authorizedApp(daemon, "com.example.denied", types: [.stepCount])
        defer { denied.close() }
        let refused = await #expect(throws: BrokerError.self) { _ = try await denied.save([stepSample(base, base + hour)]) }
        #expect(refused?.domain == .authorizationDenied)
        #expect(refused?.code == .permissionDenied)
        let allowed = try await authorizedApp(daemon, "com.example.allowed", types: [.stepCount])
        defer { allowed.close() }
        let floor = try DaemonProcess.dayMicros("2025-01-01")
        let early = await #expect(throws: BrokerError.self) { _ = try await allowed.save([stepSample(floor - hour, floor)]) }
        #expect(early?.code == .invalidArgument)
        #expect(early?.message.contains("samples[0]") == true)
        #expect(try await allowed.save([stepSample(floor, floor + hour)]).saved == 1)
    }

    @Test func anotherAppsUUIDDeletesNothingAndSavesAsItsOwnSample() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let owner = try await authorizedApp(daemon, "com.example.owner")
        defer { owner.close() }
        let thief = try await authorizedApp(daemon, "com.example.thief")
        defer { thief.close() }
        let sample = stepSample(base, base + hour)
        _ = try await owner.save([sample])
        // The uuid is looked up in the caller's own namespace: not there, so nothing is deleted.
        #expect(try await thief.delete([sample.uuid]) == 0)
        #expect(try await collect(owner.samples(of: .stepCount)).map(\.uuid) == [sample.uuid])
        // Saved under the same uuid by the other app, it is that app's own sample.
        #expect(try await thief.save([sample]).saved == 1)
        #expect(try await collect(owner.samples(of: .stepCount)).map(\.sourceAppID).sorted() == ["com.example.owner", "com.example.thief"])
        #expect(try await thief.delete([sample.uuid]) == 1)
        #expect(try await owner.delete([sample.uuid]) == 1)
        #expect(try await collect(owner.samples(of: .stepCount)).isEmpty)
    }
}

extension DaemonProcess {
    /// `YYYY-MM-DD` at midnight UTC in µs.
    static func dayMicros(_ text: String) throws -> Int64 {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        guard let date = formatter.date(from: text) else { throw DaemonError("bad date \(text)") }
        return Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }
}
