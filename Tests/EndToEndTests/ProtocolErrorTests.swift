import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Bad frames close only the connection that sent them, with a clear status.
@Suite("Protocol errors")
struct ProtocolErrorTests {
    /// Sends `bytes` on a fresh app connection (after Hello) and returns the error its pending call sees.
    private func sendBad(_ bytes: [UInt8], daemon: DaemonProcess, appID: String) async throws -> (BrokerError?, HealthStore) {
        let victim = try await daemon.connectApp(appID)
        // A pending call on the victim connection observes the connection-level status.
        let pending = Task { () -> BrokerError? in
            do throws(BrokerError) {
                _ = try await victim.ping(delay: .seconds(10))
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        try victim.connection.sendRaw(bytes)
        let error = await pending.value
        try await waitUntil { victim.connection.isClosed }
        return (error, victim)
    }

    @Test func anOversizedFrameClosesOnlyThatConnection() async throws {
        let daemon = try await DaemonProcess()
        let bystander = try await daemon.connectApp("com.example.bystander")
        defer { bystander.close() }
        // Header announcing 5 MiB (limit 4 MiB); the body never needs to arrive.
        let header: [UInt8] = [0, 0x00, 0x50, 0x00, 0x00]
        let (error, victim) = try await sendBad(header, daemon: daemon, appID: "com.example.big")
        defer { victim.close() }
        #expect(error?.code == .resourceExhausted)
        #expect(error?.domain == .protocolError)
        #expect(try await bystander.ping(payload: [1]).payload == [1])
    }

    @Test func aBadFlagsByteIsInvalidArgumentAndClosesTheConnection() async throws {
        let daemon = try await DaemonProcess()
        let (error, victim) = try await sendBad([1, 0, 0, 0, 0], daemon: daemon, appID: "com.example.flags")
        defer { victim.close() }
        #expect(error?.code == .invalidArgument)
        #expect(error?.domain == .protocolError)
    }

    @Test func anUndecodableMessageIsInvalidArgumentAndClosesTheConnection() async throws {
        let daemon = try await DaemonProcess()
        var frame: [UInt8] = []
        FrameHeader.append(length: 4, to: &frame)
        frame += [0xFF, 0xFF, 0xFF, 0xFF]
        let (error, victim) = try await sendBad(frame, daemon: daemon, appID: "com.example.garbage")
        defer { victim.close() }
        #expect(error?.code == .invalidArgument)
        // The daemon is still serving everyone else.
        let other = try await daemon.connectApp("com.example.after")
        defer { other.close() }
        #expect(try await other.ping(payload: [3]).payload == [3])
    }

    @Test func aFrameSplitIntoSingleBytesIsStillUnderstood() async throws {
        let daemon = try await DaemonProcess()
        let store = try await daemon.connectApp("com.example.trickle")
        defer { store.close() }
        // A whole ping call written one byte per write; the reply must match call id 1000.
        var frame: [UInt8] = []
        WireCodec.append(ClientFrame.call(Call(callID: 1_000, request: .ping(PingRequest(payload: [8])))), to: &frame)
        // The trickle runs on a thread of its own: 1 ms sleeps on the cooperative pool, crowded by the
        // parallel suite, resumed late enough to pass the broker's 10 s limit for one frame.
        let connection = store.connection
        let bytes = frame
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            Thread {
                do {
                    for byte in bytes {
                        try connection.sendRaw([byte])
                        usleep(1_000)
                    }
                    done.resume()
                } catch {
                    done.resume(throwing: error)
                }
            }.start()
        }
        // The connection stays healthy and answers normal calls too.
        #expect(try await store.ping(payload: [6]).payload == [6])
        #expect(!store.connection.isClosed)
    }
}
