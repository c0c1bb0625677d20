import BrokerWire
import Foundation
import Testing
@testable import HealthBrokerClient

/// The client loop as a task executor, and `HealthStore.executor` against a fake broker.
@Suite("The client loop and HealthStore.executor")
struct ClientLoopTests {
    @Test func tasksThatPreferTheLoopRunOnItsThread() async throws {
        let loop = try ClientLoop()
        #expect(!loop.isCurrent)
        let order = Shared<[Int]>([])
        await withTaskExecutorPreference(loop) {
            #expect(loop.isCurrent)
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        #expect(loop.isCurrent)
                        order.withLock { $0.append(index) }
                    }
                }
            }
            #expect(loop.isCurrent)
        }
        #expect(order.current.sorted() == Array(0..<50))
    }

    @Test func aReleasedLoopWithNothingAttachedEndsItsThread() async throws {
        var loop: ClientLoop? = try ClientLoop()
        let thread = try #require(loop?.thread)
        await withTaskExecutorPreference(loop) { #expect(thread.isCurrent) }
        #expect(!thread.hasExited)
        loop = nil
        #expect(await waitUntil { thread.hasExited })
    }

    @Test func theLoopThreadEndsOnceItsConnectionIsReleased() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        var store: HealthStore? = try await broker.connectApp()
        let thread = try #require(store?.connection.loop.thread)
        #expect(try await store?.ping(payload: [1]).payload == [1])
        store = nil
        #expect(await waitUntil { thread.hasExited })
    }

    @Test func callsOnTheStoreExecutorResumeOnTheConnectionThread() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp()
        defer { store.close() }
        let loop = store.connection.loop
        let payloads = await withTaskExecutorPreference(store.executor) {
            await withTaskGroup(of: [UInt8]?.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        var last: [UInt8]?
                        for round in 0..<20 {
                            last = try? await store.ping(payload: [UInt8(index), UInt8(round)]).payload
                            guard loop.isCurrent else { return nil }
                        }
                        return last
                    }
                }
                return await group.reduce(into: Set<[UInt8]>()) { if let payload = $1 { $0.insert(payload) } }
            }
        }
        #expect(payloads == Set((0..<32).map { [UInt8($0), 19] }), "every task got all its replies, on the loop")
    }

    /// Big requests written from the loop while the broker is busy writing big replies back: the
    /// loop must read while its write waits, or both sides block for good.
    @Test func bigCallsFromTheLoopThreadDoNotWedgeIt() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp()
        defer { store.close() }
        let payload = [UInt8](repeating: 0xA5, count: 1 << 20)
        let (sizes, wedged) = await ClientLoopSharedWriterTests.finishing(store, within: 30) {
            await withTaskExecutorPreference(store.executor) {
                await withTaskGroup(of: Int.self) { group in
                    for _ in 0..<8 {
                        group.addTask { (try? await store.ping(payload: payload, timeout: .seconds(20)).payload.count) ?? -1 }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
        }
        #expect(!wedged, "the loop's writes and the broker's replies wedged each other")
        #expect(sizes == Array(repeating: payload.count, count: 8))
    }

    @Test func reconnectionsKeepTheStoreExecutor() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp(reconnect: ReconnectPolicy(initialDelay: .milliseconds(5), maxDelay: .milliseconds(40)))
        defer { store.close() }
        let loop = store.connection.loop
        let first = store.connection.currentCore
        broker.closeConnections()
        #expect(await waitUntil { store.isConnected && store.connection.currentCore !== first })
        #expect(store.connection.currentCore.loop === loop, "the new socket is read by the same loop")
        let reply = await withTaskExecutorPreference(store.executor) { () -> (payload: [UInt8]?, onLoop: Bool) in
            let payload = try? await store.ping(payload: [4], timeout: .seconds(5)).payload
            return (payload, loop.isCurrent)
        }
        #expect(reply.payload == [4])
        #expect(reply.onLoop)
        #expect(!first.loop.thread.hasExited, "the loop lives on for the new connection")
    }
}

/// Writers on and off the loop at once, with replies big enough to fill the socket both ways.
@Suite("The client loop with writers on other threads")
struct ClientLoopSharedWriterTests {
    /// Pool tasks hold the writer while the broker, blocked writing replies nobody reads yet, stops
    /// reading: the loop, wanting the writer for its own task's call, must keep reading meanwhile.
    @Test func theLoopReadsWhileAnotherThreadHoldsTheWriter() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp()
        defer { store.close() }
        let payload = [UInt8](repeating: 0x3C, count: 1 << 20)
        let pings = { @Sendable (count: Int) async -> [Int] in
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<count {
                    group.addTask { (try? await store.ping(payload: payload, timeout: .seconds(30)).payload.count) ?? -1 }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        let (results, wedged) = await Self.finishing(store, within: 30) { () -> (fromLoop: [Int], fromPool: [Int]) in
            async let fromPool = pings(6)
            let fromLoop = await withTaskExecutorPreference(store.executor) { await pings(6) }
            return (fromLoop, await fromPool)
        }
        #expect(!wedged, "the writers on and off the loop wedged each other")
        #expect(results.fromLoop == Array(repeating: payload.count, count: 6))
        #expect(results.fromPool == Array(repeating: payload.count, count: 6))
    }

    /// Runs `work`; if it has not finished within `seconds` of starting, closes `store` (every blocked
    /// write then fails, so the work ends) and says so. Wedged writers can hold every thread of the
    /// cooperative pool, so the watchdog is a thread of its own. Its clock starts when `work` does:
    /// the task running it needs the pool to start, and in a full parallel run CPU-bound suites kept
    /// the pool for over 30 s, so a watchdog counting from here closed the store before the first
    /// call (every call then failed, -1 for each size, as if wedged).
    static func finishing<T: Sendable>(_ store: HealthStore, within seconds: Int, _ work: @escaping @Sendable () async -> T) async -> (value: T, wedged: Bool) {
        let started = Shared(false)
        let done = Shared(false)
        let wedged = Shared(false)
        let watchdog = Thread {
            // Up to 10 minutes for the pool to start the work (within about a minute in every full run seen).
            for _ in 0..<6_000 where !started.current && !done.current { usleep(100_000) }
            for _ in 0..<(seconds * 10) where !done.current { usleep(100_000) }
            guard !done.current else { return }
            wedged.withLock { $0 = true }
            store.close()
        }
        watchdog.start()
        let value = await Task {
            started.withLock { $0 = true }
            return await work()
        }.value
        done.withLock { $0 = true }
        return (value, wedged.current)
    }
}
