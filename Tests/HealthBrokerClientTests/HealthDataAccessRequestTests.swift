import Dispatch
import Foundation
import HealthBrokerClient
import Testing

/// What a fake request function saw, and what the completion received.
private final class Probe: Sendable {
    /// The (share, read) sets of each request run, in the order they ran.
    let requests = Shared<[(Set<ObjectType>, Set<ObjectType>?)]>([])
    /// Each completion's result, as a description (success(true) or the error).
    let results = Shared<[Result<Bool, BrokerError>]>([])
    /// For each completion: whether it ran on the test's caller queue.
    let ranOnCallerQueue = Shared<[Bool]>([])

    /// The request function: records the sets, then throws `error` if given.
    func request(throwing error: BrokerError? = nil, gate: Gate? = nil) -> @Sendable (Set<ObjectType>, Set<ObjectType>?) async throws -> Void {
        { share, read in
            self.requests.withLock { $0.append((share, read)) }
            if let gate { await gate.wait() }
            if let error { throw error }
        }
    }

    /// The completion: records the result and the queue it ran on.
    var completion: @Sendable (Result<Bool, Error>) -> Void {
        { result in
            self.ranOnCallerQueue.withLock { $0.append(DispatchQueue.getSpecific(key: callerQueueKey) != nil) }
            self.results.withLock { $0.append(result.mapError { $0 as? BrokerError ?? BrokerError.internal("\($0)") }) }
        }
    }

    /// How many completions ran.
    var completionCount: Int { results.withLock { $0.count } }
}

/// Marks the queue the tests call `setTrigger` from.
private let callerQueueKey = DispatchSpecificKey<Bool>()

/// A trigger history: the initial value, the values set in order, and the requests it should fire.
struct TriggerSequence: Sendable, CustomTestStringConvertible {
    let initial: String
    let values: [String]
    /// How many requests have fired after each value is set.
    let firedAfterEach: [Int]

    var testDescription: String { "\"\(initial)\" then [\(values.map { "\"\($0)\"" }.joined(separator: ", "))]" }

    static let all: [TriggerSequence] = [
        TriggerSequence(initial: "A", values: [], firedAfterEach: []),
        TriggerSequence(initial: "A", values: ["A"], firedAfterEach: [0]),
        TriggerSequence(initial: "A", values: ["A", "A", "A"], firedAfterEach: [0, 0, 0]),
        TriggerSequence(initial: "A", values: ["B"], firedAfterEach: [1]),
        TriggerSequence(initial: "A", values: ["B", "B", "A"], firedAfterEach: [1, 1, 2]),
        TriggerSequence(initial: "A", values: ["A", "B", "B", "A", "A"], firedAfterEach: [0, 1, 1, 2, 2]),
        TriggerSequence(initial: "A", values: ["B", "A", "B", "A"], firedAfterEach: [1, 2, 3, 4]),
        TriggerSequence(initial: "A", values: ["B", "C", "C", "D", "A", "A"], firedAfterEach: [1, 2, 2, 3, 4, 4]),
        TriggerSequence(initial: "", values: ["", "x", ""], firedAfterEach: [0, 1, 2]),
    ]
}

@Suite("HealthDataAccessRequest trigger")
struct HealthDataAccessRequestTests {
    @Test(arguments: TriggerSequence.all)
    func firesExactlyOncePerChangeAndNeverForAnEqualValue(sequence: TriggerSequence) async {
        let probe = Probe()
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount], readTypes: [.heartRate], trigger: sequence.initial,
            request: probe.request(), completion: probe.completion)
        #expect(access.firedRequestCount == 0)
        #expect(access.trigger == sequence.initial)
        for (value, expected) in zip(sequence.values, sequence.firedAfterEach) {
            access.setTrigger(value)
            #expect(access.trigger == value)
            #expect(access.firedRequestCount == expected, "after setting \(value)")
        }
        let fired = sequence.firedAfterEach.last ?? 0
        #expect(await waitUntil { probe.completionCount >= fired })
        // Nothing more arrives later.
        try? await Task.sleep(for: .milliseconds(50))
        #expect(probe.completionCount == fired)
        #expect(probe.requests.current.count == fired)
        #expect(probe.results.current.allSatisfy { $0 == .success(true) })
    }

    @Test func creatingTheRequestFiresNothing() async {
        let probe = Probe()
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount], trigger: false, request: probe.request(), completion: probe.completion)
        try? await Task.sleep(for: .milliseconds(50))
        #expect(access.firedRequestCount == 0)
        #expect(probe.requests.current.isEmpty)
        #expect(probe.completionCount == 0)
    }

    @Test func togglingABoolFiresOncePerToggle() async {
        let probe = Probe()
        let access = HealthDataAccessRequest(
            shareTypes: [], readTypes: [.stepCount], trigger: false, request: probe.request(), completion: probe.completion)
        for _ in 0..<5 { access.setTrigger(!access.trigger) }
        #expect(access.firedRequestCount == 5)
        #expect(access.trigger == true)
        #expect(await waitUntil { probe.completionCount == 5 })
    }

    @Test func theRequestGetsTheShareAndReadTypes() async {
        let probe = Probe()
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount, .bodyMass], readTypes: [.heartRate, .dateOfBirth], trigger: 0,
            request: probe.request(), completion: probe.completion)
        access.setTrigger(1)
        #expect(await waitUntil { probe.completionCount == 1 })
        let requests = probe.requests.current
        #expect(requests.count == 1)
        #expect(requests.first?.0 == [.stepCount, .bodyMass])
        #expect(requests.first?.1 == [.heartRate, .dateOfBirth])
    }

    @Test func nilReadTypesMeansShareOnly() async {
        let probe = Probe()
        let access = HealthDataAccessRequest(
            shareTypes: [.workout], trigger: 0, request: probe.request(), completion: probe.completion)
        access.setTrigger(1)
        #expect(await waitUntil { probe.completionCount == 1 })
        let requests = probe.requests.current
        #expect(requests.first?.0 == [.workout])
        #expect(requests.first.map { $0.1 == nil } == true)
    }

    @Test func theCompletionReceivesSuccessTrue() async {
        let probe = Probe()
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount], trigger: "a", request: probe.request(), completion: probe.completion)
        access.setTrigger("b")
        #expect(await waitUntil { probe.completionCount == 1 })
        #expect(probe.results.current == [.success(true)])
    }

    @Test func theCompletionReceivesTheRequestsError() async {
        let probe = Probe()
        let error = BrokerError(.userCanceled, "the person cancelled the prompt")
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount], trigger: "a", request: probe.request(throwing: error), completion: probe.completion)
        access.setTrigger("b")
        access.setTrigger("c")
        #expect(await waitUntil { probe.completionCount == 2 })
        #expect(probe.results.current == [.failure(error), .failure(error)])
    }

    @Test func theCompletionRunsOffTheCallersQueue() async {
        let probe = Probe()
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount], trigger: 0, request: probe.request(), completion: probe.completion)
        let callerQueue = DispatchQueue(label: "test.caller")
        callerQueue.setSpecific(key: callerQueueKey, value: true)
        // The caller's (serial) queue stays busy until the completion has run: a completion sent to
        // the caller's queue, or run inside setTrigger, could not signal in time.
        // The request runs in a task of the cooperative pool, which in a full run beside two CPU hogs
        // sat behind other tests for over 60 s: the caller waits up to 60 s of the pool's time, as a
        // task here beating every 5 ms counts it (12,000 beats), not of the wall clock.
        let beats = Shared(0)
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(5))
                beats.withLock { $0 += 1 }
            }
        }
        defer { heartbeat.cancel() }
        let completedWhileCallerBusy = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            callerQueue.async {
                let start = beats.current
                access.setTrigger(1)
                var completed = false
                while beats.current < start + 12_000 {
                    if probe.completionCount == 1 {
                        completed = true
                        break
                    }
                    usleep(1_000)
                }
                continuation.resume(returning: completed)
            }
        }
        #expect(completedWhileCallerBusy)
        #expect(probe.ranOnCallerQueue.current == [false])
    }

    @Test func theCompletionRunsOnAGlobalQueueNotOnTheCallersThread() async {
        let callerThread = Shared<pthread_t?>(nil)
        let completionThread = Shared<pthread_t?>(nil)
        let isMain = Shared<Bool?>(nil)
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount], trigger: 0, request: { _, _ in },
            completion: { _ in
                completionThread.withLock { $0 = pthread_self() }
                isMain.withLock { $0 = Thread.isMainThread }
            })
        let thread = Thread {
            callerThread.withLock { $0 = pthread_self() }
            access.setTrigger(1)
            // Keep this thread alive until the completion has run, so its id cannot be reused.
            while completionThread.current == nil { usleep(1_000) }
        }
        thread.start()
        #expect(await waitUntil { completionThread.current != nil })
        let caller = callerThread.current, completion = completionThread.current
        #expect(caller != nil && completion != nil)
        if let caller, let completion { #expect(pthread_equal(caller, completion) == 0) }
        #expect(isMain.current == false)
    }

    @Test func setTriggerReturnsBeforeTheRequestCompletes() async {
        let probe = Probe()
        let gate = Gate()
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount], trigger: 0, request: probe.request(gate: gate), completion: probe.completion)
        access.setTrigger(1)
        access.setTrigger(2)
        #expect(access.firedRequestCount == 2)
        // Both requests start (they run concurrently) but neither completes while the gate is shut.
        #expect(await waitUntil { probe.requests.current.count == 2 })
        try? await Task.sleep(for: .milliseconds(30))
        #expect(probe.completionCount == 0)
        gate.open()
        #expect(await waitUntil { probe.completionCount == 2 })
    }

    @Test func aRequestInFlightCompletesAfterTheObjectIsReleased() async {
        let probe = Probe()
        let gate = Gate()
        do {
            let access = HealthDataAccessRequest(
                shareTypes: [.stepCount], trigger: 0, request: probe.request(gate: gate), completion: probe.completion)
            access.setTrigger(1)
        }
        #expect(await waitUntil { probe.requests.current.count == 1 })
        gate.open()
        #expect(await waitUntil { probe.completionCount == 1 })
        #expect(probe.results.current == [.success(true)])
    }

    @Test func concurrentDistinctValuesEachFireOnce() async {
        let probe = Probe()
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount], trigger: 0, request: probe.request(), completion: probe.completion)
        let count = 200
        DispatchQueue.concurrentPerform(iterations: count) { index in access.setTrigger(index + 1) }
        // Every value differs from whatever was set before it, so every set is a change.
        #expect(access.firedRequestCount == count)
        #expect(await waitUntil { probe.completionCount == count })
    }

    @Test func concurrentEqualValuesFireOnce() async {
        let probe = Probe()
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount], trigger: "off", request: probe.request(), completion: probe.completion)
        DispatchQueue.concurrentPerform(iterations: 200) { _ in access.setTrigger("on") }
        #expect(access.firedRequestCount == 1)
        #expect(access.trigger == "on")
        #expect(await waitUntil { probe.completionCount == 1 })
        try? await Task.sleep(for: .milliseconds(50))
        #expect(probe.completionCount == 1)
    }

    @Test func concurrentAlternatingValuesFireOncePerChangeSeen() async {
        let probe = Probe()
        let access = HealthDataAccessRequest(
            shareTypes: [.stepCount], trigger: 0, request: probe.request(), completion: probe.completion)
        DispatchQueue.concurrentPerform(iterations: 400) { index in access.setTrigger(index % 2) }
        // However they interleave, the fired count never exceeds the sets and every completion arrives.
        let fired = access.firedRequestCount
        #expect(fired <= 400)
        #expect(await waitUntil { probe.completionCount == fired })
        try? await Task.sleep(for: .milliseconds(50))
        #expect(probe.completionCount == fired)
        #expect(probe.requests.current.count == fired)
    }
}
