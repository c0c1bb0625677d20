import BrokerModel
import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// Mutated frames of every stream call (and credit, cancel) sent to the real daemon: it must stay up,
/// keep its memory, and keep answering a well-behaved client.
@Suite("Mutated frames, end to end")
struct FrameMutationTests {
    /// One session's worth of frames: streams with huge counts and credit, credit and cancel frames,
    /// sample calls; each a seed the mutator edits.
    static func seeds() -> [ClientFrame] {
        let sample = Sample(uuid: "00000000-0000-4000-8000-000000000001", type: .stepCount, startMicros: base, endMicros: base + hour,
                            value: .quantity(Quantity(10, "count")))
        return [
            .call(Call(callID: 2, initialCredit: .max, request: .pingStream(PingStreamRequest(count: .max, payload: [UInt8](repeating: 9, count: 64 << 10))))),
            .credit(callID: 2, items: .max),
            .call(Call(callID: 3, initialCredit: 4, request: .query(SampleQuery(type: .stepCount, pageSize: 4_096)))),
            .call(Call(callID: 4, initialCredit: .max, request: .anchoredQuery(AnchoredQuery(type: .stepCount, anchor: [2] + [UInt8](repeating: 0, count: 48))))),
            .call(Call(callID: 5, request: .statistics(StatisticsQuery(type: .stepCount, predicate: .all, options: .sum, interval: .day)))),
            .call(Call(callID: 6, initialCredit: 1, request: .observe([.stepCount, .heartRate]))),
            .call(Call(callID: 7, request: .save([sample]))),
            .call(Call(callID: 8, request: .delete(uuids: [sample.uuid], type: nil, predicate: nil))),
            .call(Call(callID: 9, timeoutMicros: 1, request: .ping(PingRequest(delayMicros: 3_600_000_000, payload: [1, 2, 3])))),
            .cancel(callID: 3),
        ]
    }

    @Test func mutatedStreamAndCreditFramesNeitherStopNorBloatTheBroker() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let credentials = try await daemon.registerApp("com.example.mutant")
        let witness = try await authorizedApp(daemon, "com.example.witness")
        defer { witness.close() }
        let before = residentBytes(daemon)
        var mutator = ByteMutator(seed: 15)
        var encoded: [[UInt8]] = []
        for seed in Self.seeds() {
            var bytes: [UInt8] = []
            WireCodec.append(seed, to: &bytes)
            encoded.append(bytes)
        }
        // 300 sessions of 8 frames each: every one a seed, most of them mutated (length prefix and
        // flags included), so the broker sees valid calls, bad calls and broken framing alike.
        for session in 0..<300 {
            let client = try DeafClient(socket: daemon.appSocket, appID: "com.example.mutant", token: credentials.token)
            var bytes: [UInt8] = []
            for index in 0..<8 {
                let seed = encoded[(session + index * 3) % encoded.count]
                bytes += mutator.next() % 5 == 0 ? seed : mutator.mutated(seed)
            }
            _ = try await client.pour(bytes, giveUpAfter: 0.05)
            var decoder = FrameDecoder(maxFrameBytes: 8 << 20)
            _ = try? await client.readAvailable(seconds: 0.005, decoder: &decoder)
        }
        #expect(daemon.isRunning)
        #expect(try await witness.ping(payload: [42]).payload == [42])
        let grown = residentBytes(daemon) - before
        #expect(grown < 256 << 20, "the broker grew by \(grown >> 20) MiB")
    }
}
