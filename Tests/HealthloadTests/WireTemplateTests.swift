import BrokerWire
@testable import healthload
import HealthBrokerClient
import Testing

/// Pre-encoded calls and the hot-path reply scanner agree with the codec.
@Suite("Call templates and reply scanning")
struct WireTemplateTests {
    private func decode(_ frame: [UInt8]) throws -> ClientFrame {
        #expect(frame[0] == 0)
        let length = Int(frame[1]) << 24 | Int(frame[2]) << 16 | Int(frame[3]) << 8 | Int(frame[4])
        #expect(length == frame.count - 5)
        return try WireCodec.decodeClientFrame(frame[5...])
    }

    @Test(arguments: [UInt64(1), 127, 128, 300_000, 1 << 40, .max])
    func aTemplateFrameDecodesAsTheCallWithItsID(callID: UInt64) throws {
        let request = Proto.Call.Request.ping(PingRequest(payload: [1, 2, 3]).proto)
        var template = try CallTemplate(operation: .ping, request: request, timeoutMicros: 5_000)
        var frame: [UInt8] = []
        let size = template.appendFrame(callID: callID, counter: 0, to: &frame)
        #expect(size == frame.count)
        let call = Proto.Call.with {
            $0.callID = callID
            $0.timeoutMicros = 5_000
            $0.request = request
        }
        #expect(try decode(frame) == .call(Call(callID: callID, timeoutMicros: 5_000, request: .ping(PingRequest(payload: [1, 2, 3])))))
        // The same bytes the client writes.
        var expected: [UInt8] = []
        Proto.ClientFrame.appendFrame(call: call, to: &expected)
        #expect(frame == expected)
    }

    @Test func saveTemplatesWriteNewUUIDsOnEveryCall() throws {
        var options = LoadOptions(socketPath: "/x", adminSocketPath: "/y")
        options.saveBatch = 3
        let workload = LoadWorkload(options: options, nowMicros: 1_700_000_000_000_000, runTag: 0xabcdef01)
        var template = try workload.template(for: .save)
        var seen = Set<String>()
        for counter in [UInt64(1), 2, LoadWorkload.saveCounterBase(connection: 5) + 1] {
            var frame: [UInt8] = []
            _ = template.appendFrame(callID: counter, counter: counter, to: &frame)
            guard case .call(let call) = try decode(frame), case .save(let save) = call.request else {
                Issue.record("not a save")
                return
            }
            #expect(save.samples.count == 3)
            for sample in save.samples {
                #expect(sample.uuid.hasPrefix("abcdef01-0000-4"))
                #expect(sample.uuid.hasSuffix(LoadWorkload.hex(counter, 12)))
                seen.insert(sample.uuid)
            }
        }
        #expect(seen.count == 9)
    }

    @Test func theQueryTemplateAsksForEveryPageUpFront() throws {
        var options = LoadOptions(socketPath: "/x", adminSocketPath: "/y")
        options.querySamples = 1_500
        let workload = LoadWorkload(options: options, nowMicros: 1_700_000_000_000_000, runTag: 1)
        var template = try workload.template(for: .query)
        var frame: [UInt8] = []
        _ = template.appendFrame(callID: 9, counter: 0, to: &frame)
        guard case .call(let call) = try decode(frame), case .query(let query) = call.request else {
            Issue.record("not a query")
            return
        }
        #expect(call.initialCredit == 4)
        #expect(query.limit == 1_500)
        #expect(query.predicate?.startMicros == workload.seedStartMicros)
        #expect(workload.seedSamples(app: 1).count == 1_500)
        #expect(workload.seedSamples(app: 1).last!.endMicros <= 1_700_000_000_000_000 / 86_400_000_000 * 86_400_000_000)
    }

    private func scan(_ frame: ServerFrame) -> ReplySummary? {
        var bytes: [UInt8] = []
        WireCodec.append(frame, to: &bytes)
        return bytes.withUnsafeBytes { ReplySummary.scan(UnsafeRawBufferPointer(rebasing: $0[5...])) }
    }

    @Test func theScannerReadsCallIDStatusAndStreamItems() throws {
        let ok = try #require(scan(ServerFrame(callID: 77, response: .ping(PingResponse(payload: [9], brokerTimeMicros: 5, sequence: 0)))))
        #expect(ok == ReplySummary(callID: 77, statusCode: nil, isStreamItem: false))
        #expect(ok.endsCall && ok.code == 0)

        let failed = try #require(scan(ServerFrame(callID: 1 << 33, status: Status(code: .permissionDenied, domain: .authorizationDenied, message: "no"))))
        #expect(failed.callID == 1 << 33)
        #expect(failed.code == StatusCode.permissionDenied.rawValue)
        #expect(failed.endsCall)

        let item = try #require(scan(ServerFrame(callID: 3, response: .streamItem(.samples([])))))
        #expect(item.isStreamItem && !item.endsCall)

        let end = try #require(scan(ServerFrame(callID: 3, status: .ok)))
        #expect(end.endsCall && end.code == 0)

        let connection = try #require(scan(ServerFrame(callID: 0, status: Status(code: .invalidArgument))))
        #expect(connection.callID == 0 && connection.code == 3)
    }

    @Test func theScannerRefusesTruncatedFrames() {
        var bytes: [UInt8] = []
        WireCodec.append(ServerFrame(callID: 300, response: .ping(PingResponse(payload: Array(repeating: 1, count: 40), brokerTimeMicros: 5, sequence: 0))), to: &bytes)
        let truncated = Array(bytes[5..<(bytes.count - 3)])
        #expect(truncated.withUnsafeBytes { ReplySummary.scan($0) } == nil)
        #expect([UInt8(0x08)].withUnsafeBytes { ReplySummary.scan($0) } == nil)
    }

    @Test func slotIDsAreUniqueWhileInFlightAndStaleRepliesAreIgnored() {
        var slots = CallSlots(capacity: 4)
        var ids: [UInt64] = []
        for _ in 0..<4 { ids.append(slots.open(operation: 0, start: 1, measured: true).callID) }
        #expect(Set(ids).count == 4)
        #expect(!slots.hasFree)
        let slot = slots.slot(forCallID: ids[2])!
        slots.close(slot)
        #expect(slots.slot(forCallID: ids[2]) == nil)
        let reused = slots.open(operation: 1, start: 2, measured: false)
        #expect(reused.slot == slot)
        #expect(reused.callID != ids[2])
        #expect(slots.slot(forCallID: ids[2]) == nil)
        #expect(slots.slot(forCallID: reused.callID) == slot)
        #expect(slots.slot(forCallID: 0) == nil)
        #expect(slots.inFlight == 4)
    }
}
