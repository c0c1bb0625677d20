import Foundation
import BrokerWire
import Testing
@testable import HealthBrokerClient

@Suite("BrokerConnection against a fake broker")
struct BrokerConnectionTests {
    static func ping(_ payload: [UInt8] = []) -> Proto.Call.Request { ProtoFrames.ping(payload) }

    @Test func connectToAMissingSocketIsUnavailableNamingThePath() {
        do {
            _ = try BrokerConnection.connect(socketPath: "/tmp/definitely-not-here/app.sock")
            Issue.record("connected")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.message.contains("/tmp/definitely-not-here/app.sock"))
        }
    }

    @Test func unaryRoundTripUsesIncreasingIds() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        for index in 0..<3 {
            let response = try await connection.unary(Self.ping([UInt8(index)]), timeout: nil)
            #expect(response == ProtoFrames.pong(PingResponse(payload: [UInt8(index)], brokerTimeMicros: 1_000_000)))
        }
        #expect(broker.calls.map(\.callID) == [1, 2, 3])
        #expect(connection.pendingCallCount == 0)
    }

    @Test func concurrentCallsGetTheirOwnRepliesOutOfOrder() async throws {
        let batch = 50
        // Answer in reverse order once a whole batch is in.
        let waiting = Shared<[Call]>([])
        let broker = try FakeBroker { call in
            let full: [Call] = waiting.withLock { calls in
                calls.append(call)
                guard calls.count == batch else { return [] }
                defer { calls = [] }
                return calls
            }
            return full.reversed().compactMap { call in
                guard case .ping(let ping) = call.request else { return nil }
                return ServerFrame(callID: call.callID, response: .ping(PingResponse(payload: ping.payload)))
            }
        }
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<(batch * 4) {
                group.addTask {
                    let payload = Array("call \(index)".utf8)
                    let response = try await connection.unary(Self.ping(payload), timeout: .seconds(10))
                    #expect(response == ProtoFrames.pong(PingResponse(payload: payload)))
                }
            }
            try await group.waitForAll()
        }
        #expect(connection.pendingCallCount == 0)
    }

    @Test func errorStatusIsThrown() async throws {
        let broker = try FakeBroker(failing: BrokerError(code: .permissionDenied, domain: .authorizationDenied, message: "denied"))
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        await #expect(throws: BrokerError(code: .permissionDenied, domain: .authorizationDenied, message: "denied")) {
            _ = try await connection.unary(Self.ping(), timeout: nil)
        }
    }

    @Test func connectionLevelErrorFailsEverythingPending() async throws {
        let broker = try FakeBroker()
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        let first = Task { try await connection.unary(Self.ping(), timeout: nil) }
        let second = Task { try await connection.unary(Self.ping(), timeout: nil) }
        await broker.waitForFrames(2)
        let status = Status(code: .invalidArgument, domain: .protocolError, message: "frame flags byte is 1")
        broker.send(ServerFrame(callID: 0, status: status))
        #expect(failure(await first.result) == status.error)
        #expect(failure(await second.result) == status.error)
        #expect(connection.isClosed)
        await #expect(throws: BrokerError.self) { _ = try await connection.unary(Self.ping(), timeout: nil) }
        // Later calls say why the connection is unusable: the broker's own status.
        do {
            _ = try await connection.unary(Self.ping(), timeout: nil)
        } catch {
            #expect(error.code == status.code)
            #expect(error.domain == status.domain)
        }
    }

    @Test func eofFailsPendingAndLaterCallsWithUnavailable() async throws {
        let broker = try FakeBroker()
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        let pending = Task { try await connection.unary(Self.ping(), timeout: nil) }
        await broker.waitForFrames(1)
        broker.closeConnections()
        do {
            _ = try await pending.value
            Issue.record("no error")
        } catch let error as BrokerError {
            #expect(error.code == .unavailable)
            #expect(error.message.contains(broker.socketPath))
        }
        #expect(connection.isClosed)
        let started = ContinuousClock.now
        do {
            _ = try await connection.unary(Self.ping(), timeout: nil)
            Issue.record("no error")
        } catch {
            #expect(error.code == .unavailable)
        }
        #expect(ContinuousClock.now - started < .milliseconds(100))
        #expect(connection.pendingCallCount == 0)
    }

    /// The upper bound on a deadline test's wall time: it only tells "the deadline fired" from "it
    /// never did". In the full parallel suite on two cores, with dozens of daemons starting, a
    /// resumed test task has waited over 20 s for a thread, so the bound is generous.
    static let sanityBound = Duration.seconds(90)

    @Test func hungBrokerHitsTheClientDeadline() async throws {
        let broker = try FakeBroker()
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        let started = ContinuousClock.now
        do {
            _ = try await connection.unary(Self.ping(), timeout: .milliseconds(50))
            Issue.record("no error")
        } catch {
            #expect(error.code == .deadlineExceeded)
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(290) && elapsed < Self.sanityBound, "took \(elapsed)")
        #expect(broker.calls.first?.timeoutMicros == 50_000)
        #expect(connection.pendingCallCount == 0)
        // A late reply is ignored; the connection still works.
        broker.send(ServerFrame(callID: 1, response: .ping(PingResponse())))
        let next = Task { try await connection.unary(Self.ping([9]), timeout: .seconds(5)) }
        await broker.waitForFrames(2)
        broker.send(ServerFrame(callID: 2, response: .ping(PingResponse(payload: [9]))))
        #expect(try await next.value == ProtoFrames.pong(PingResponse(payload: [9])))
    }

    @Test func manyDeadlinesExpireInOrder() async throws {
        let broker = try FakeBroker()
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        let started = ContinuousClock.now
        let elapsed = await withTaskGroup(of: (Int, Duration).self) { group in
            for (index, millis) in [400, 100, 250, 0].enumerated() {
                group.addTask {
                    do {
                        _ = try await connection.unary(Self.ping(), timeout: millis == 0 ? nil : .milliseconds(millis))
                    } catch {
                        #expect((error as Error as? BrokerError)?.code == (millis == 0 ? StatusCode.unavailable : .deadlineExceeded))
                    }
                    return (index, ContinuousClock.now - started)
                }
            }
            var results: [Int: Duration] = [:]
            for await (index, time) in group {
                results[index] = time
                if results.count == 3 { connection.close() }
            }
            return results
        }
        #expect(elapsed[1]! < elapsed[2]! && elapsed[2]! < elapsed[0]!)
        #expect(elapsed[0]! >= Duration.milliseconds(640) && elapsed[0]! < Self.sanityBound)
    }

    @Test func taskCancellationSendsCancelAndThrowsCancelled() async throws {
        let broker = try FakeBroker()
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        let task = Task { () async throws(BrokerError) -> Proto.ServerFrame.Response in
            try await connection.unary(Self.ping(), timeout: nil)
        }
        await broker.waitForFrames(1)
        task.cancel()
        let result = await task.result
        #expect(failure(result) == .callCancelled)
        let frames = await broker.waitForFrames(2)
        #expect(frames.last == .cancel(callID: 1))
        #expect(connection.pendingCallCount == 0)
    }

    @Test func alreadyCancelledTaskSendsNothing() async throws {
        let broker = try FakeBroker()
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        let task = Task { () async throws(BrokerError) -> Proto.ServerFrame.Response in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await connection.unary(Self.ping(), timeout: nil)
        }
        #expect(failure(await task.result) == .callCancelled)
        try await Task.sleep(for: .milliseconds(50))
        #expect(broker.received.isEmpty)
    }

    @Test func closeFailsPendingCalls() async throws {
        let broker = try FakeBroker()
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        let pending = Task { try await connection.unary(Self.ping(), timeout: nil) }
        await broker.waitForFrames(1)
        connection.close()
        #expect(failure(await pending.result)?.code == .unavailable)
        #expect(connection.isClosed)
        #expect(await broker.waitForClosedConnections(1))
    }

    @Test func releasingTheConnectionClosesTheSocket() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        do {
            let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
            _ = try await connection.unary(Self.ping(), timeout: nil)
        }
        #expect(await broker.waitForClosedConnections(1))
    }

    @Test func malformedReplyFailsPendingWithInternal() async throws {
        let broker = try FakeBroker()
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        let pending = Task { try await connection.unary(Self.ping(), timeout: nil) }
        await broker.waitForFrames(1)
        broker.sendBytes([7, 0, 0, 0, 1, 0])
        do {
            _ = try await pending.value
            Issue.record("no error")
        } catch let error as BrokerError {
            #expect(error.code == .internal)
        }
        #expect(connection.isClosed)
    }

    @Test func sendRawReachesTheBroker() async throws {
        let broker = try FakeBroker()
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        var bytes: [UInt8] = []
        WireCodec.append(ClientFrame.credit(callID: 5, items: 3), to: &bytes)
        try connection.sendRaw(bytes)
        #expect(await broker.waitForFrames(1) == [.credit(callID: 5, items: 3)])
        connection.close()
        #expect(throws: BrokerError.self) { try connection.sendRaw(bytes) }
    }

    @Test func completionCallbackGetsTheResult() async throws {
        let broker = try FakeBroker(answer: FakeBroker.echo)
        let connection = try BrokerConnection.connect(socketPath: broker.socketPath)
        defer { connection.close() }
        let result = await withCheckedContinuation { continuation in
            connection.unary(Self.ping([4]), timeout: nil) { continuation.resume(returning: $0) }
        }
        #expect(result == .success(ProtoFrames.pong(PingResponse(payload: [4], brokerTimeMicros: 1_000_000))))
        connection.close()
        let failed = await withCheckedContinuation { continuation in
            connection.unary(Self.ping(), timeout: nil) { continuation.resume(returning: $0) }
        }
        #expect(failure(failed)?.code == .unavailable)
    }
}
