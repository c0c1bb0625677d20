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
    @Test(.timeLimit(.minutes(1))) func bigCallsFromTheLoopThreadDoNotWedgeIt() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let store = try await broker.connectApp()
        defer { store.close() }
        let payload = [UInt8](repeating: 0xA5, count: 1 << 20)
        let sizes = await withTaskExecutorPreference(store.executor) {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { (try? await store.ping(payload: payload, timeout: .seconds(20)).payload.count) ?? -1 }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
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
