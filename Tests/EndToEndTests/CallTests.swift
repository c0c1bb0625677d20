import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Many calls per connection, each completing on its own: pipelining, delays, deadlines, cancel, streams.
@Suite("Calls")
struct CallTests {
    @Test func tenThousandPipelinedPingsOverEightConnectionsAreAllAnswered() async throws {
        let daemon = try await DaemonProcess()
        let credentials = try await daemon.registerApp("com.example.load")
        var stores: [HealthStore] = []
        for _ in 0..<8 {
            stores.append(try await HealthStore.connect(socketPath: daemon.appSocket, appID: "com.example.load", appToken: credentials.token))
        }
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    try await withThrowingTaskGroup(of: Bool.self) { calls in
                        for call in 0..<1_250 {
                            let payload = Array("\(index)-\(call)".utf8)
                            calls.addTask { try await store.ping(payload: payload).payload == payload }
                        }
                        var matched = 0
                        for try await ok in calls where ok { matched += 1 }
                        return matched
                    }
                }
            }
            var total = 0
            for try await count in group { total += count }
            return total
        }
        #expect(answered == 10_000)
        for store in stores { store.close() }
        let admin = try await daemon.admin()
        defer { admin.close() }
        #expect(try await admin.brokerInfo().callsServed >= 10_000)
    }

    @Test func aDelayedPingDoesNotHoldBackAnUndelayedOneOnTheSameConnection() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.order")
        defer { store.close() }
        let order = OrderLog()
        async let slow: Void = {
            _ = try await store.ping(payload: [1], delay: .milliseconds(800))
            order.append("slow")
        }()
        try await Task.sleep(for: .milliseconds(50))
        _ = try await store.ping(payload: [2])
        order.append("fast")
        try await slow
        #expect(order.entries == ["fast", "slow"])
    }

    @Test func aPassedDeadlineIsDeadlineExceededAndTheConnectionKeepsWorking() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.deadline")
        defer { store.close() }
        let error = await #expect(throws: BrokerError.self) {
            _ = try await store.ping(delay: .seconds(3), timeout: .milliseconds(100))
        }
        #expect(error?.code == .deadlineExceeded)
        #expect(try await store.ping(payload: [9]).payload == [9])
    }

    @Test func cancellingTheTaskCancelsTheCallOnTheBroker() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.cancel")
        defer { store.close() }
        let task = Task { try await store.ping(delay: .seconds(5)) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let result = await task.result
        #expect(throws: BrokerError.self) { try result.get() }
        if case .failure(let error as BrokerError) = result { #expect(error.code == .cancelled) }
        #expect(try await store.ping(payload: [7]).payload == [7])
        #expect(store.connection.pendingCallCount == 0)
    }

    @Test func aStreamNeverOutrunsItsCreditAndDeliversEveryItemInOrder() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.stream")
        defer { store.close() }
        var sequences: [UInt64] = []
        for try await item in store.pingStream(count: 1_000, payload: [5], window: 8) {
            #expect(item.payload == [5])
            sequences.append(item.sequence)
        }
        #expect(sequences == Array(0..<1_000))
        // Other calls keep flowing on the same connection after a stream.
        #expect(try await store.ping(payload: [1]).payload == [1])
    }

    @Test func callsOverTheInFlightLimitAreResourceExhausted() async throws {
        let daemon = try await DaemonProcess(extraArguments: ["--max-calls-in-flight", "4"])
        let store = try await daemon.connectApp("com.example.greedy")
        defer { store.close() }
        let results = await withTaskGroup(of: StatusCode.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    do throws(BrokerError) {
                        _ = try await store.ping(delay: .seconds(2))
                        return StatusCode.ok
                    } catch {
                        return error.code
                    }
                }
            }
            var codes: [StatusCode] = []
            for await code in group { codes.append(code) }
            return codes
        }
        #expect(results.filter { $0 == .ok }.count == 4)
        #expect(results.filter { $0 == .resourceExhausted }.count == 2)
    }

    @Test func completionHandlerVariantRunsOffTheCallersTask() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.completion")
        defer { store.close() }
        let payload: [UInt8] = try await withCheckedThrowingContinuation { continuation in
            store.ping(payload: [4, 2]) { result in continuation.resume(with: result.map(\.payload)) }
        }
        #expect(payload == [4, 2])
    }
}

/// A thread-safe list of labels, recording the order things happened in.
final class OrderLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ entry: String) { lock.withLock { storage.append(entry) } }
    var entries: [String] { lock.withLock { storage } }
}
