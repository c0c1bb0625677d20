import BrokerCore
import Testing
@testable import BrokerWire

@Suite("WireCodec round trips")
struct WireCodecRoundTripTests {
    @Test(arguments: Samples.clientFrames.map(Named.init))
    func clientFrameRoundTrips(sample: Named<ClientFrame>) throws {
        #expect(try roundTrip(sample.value) == sample.value)
    }

    @Test(arguments: Samples.serverFrames.map(Named.init))
    func serverFrameRoundTrips(sample: Named<ServerFrame>) throws {
        #expect(try roundTrip(sample.value) == sample.value)
    }

    @Test func everyRequestCaseIsCovered() {
        var methods = Set<String>()
        for case .call(let call) in Samples.clientFrames { methods.insert(call.request.methodName) }
        #expect(methods == [
            "Hello", "Ping", "PingStream", "AdminAddApp", "AdminListApps", "AdminRemoveApp", "AdminRotateToken",
            "AdminBrokerInfo", "Unknown",
        ])
    }

    @Test func everyResponseCaseIsCovered() {
        var cases = Set<String>()
        for frame in Samples.serverFrames {
            guard let response = frame.response else { continue }
            cases.insert(String(describing: response).prefix { $0 != "(" }.description)
        }
        #expect(cases == [
            "streamItem", "hello", "ping", "adminAddApp", "adminListApps", "adminRemoveApp", "adminRotateToken",
            "adminBrokerInfo",
        ])
    }

    @Test func everyStatusCodeAndDomainCodeRoundTrips() throws {
        for code in StatusCode.allCases {
            for domain in DomainCode.allCases {
                let frame = ServerFrame(callID: 8, status: Status(code: code, domain: domain, message: "\(code)/\(domain)"))
                #expect(try roundTrip(frame) == frame)
            }
        }
    }

    @Test func pinnedUIDNilAndSetAreDistinguished() throws {
        for pinned: UInt32? in [nil, 0, 1, 65_534, UInt32.max] {
            let registration = AppRegistration(appID: "app", name: "App", pinnedUID: pinned)
            let call = ClientFrame.call(Call(callID: 1, request: .adminAddApp(registration)))
            #expect(try roundTrip(call) == call)
            let app = AppInfo(appID: "app", name: "App", pinnedUID: pinned)
            let list = ServerFrame(callID: 1, response: .adminListApps([app]))
            guard case .adminListApps(let apps)? = try roundTrip(list).response else {
                Issue.record("not a list")
                continue
            }
            #expect(apps.map(\.pinnedUID) == [pinned])
        }
    }

    @Test func largePayloadsSurviveIntact() throws {
        let payload = Samples.bigPayload
        let ping = ClientFrame.call(Call(callID: 1, request: .ping(PingRequest(payload: payload))))
        guard case .call(let call) = try roundTrip(ping), case .ping(let request) = call.request else {
            Issue.record("not a ping")
            return
        }
        #expect(request.payload.count == payload.count)
        #expect(request.payload == payload)
        let reply = ServerFrame(callID: 1, response: .streamItem(.ping(PingResponse(payload: payload, sequence: 3))))
        #expect(try roundTrip(reply) == reply)
    }

    @Test func appendWritesAHeaderAnnouncingTheMessageLength() throws {
        for frame in Samples.serverFrames {
            var buffer: [UInt8] = []
            WireCodec.append(frame, to: &buffer)
            var header: [UInt8] = []
            FrameHeader.append(length: buffer.count - FrameDecoder.headerSize, to: &header)
            #expect(Array(buffer.prefix(FrameDecoder.headerSize)) == header)
        }
    }

    @Test func appendKeepsEarlierBytesAndFramesFollowOneAnother() throws {
        var buffer: [UInt8] = [0xDE, 0xAD]
        for frame in Samples.clientFrames { WireCodec.append(frame, to: &buffer) }
        #expect(buffer.prefix(2) == [0xDE, 0xAD])
        var decoder = FrameDecoder(maxFrameBytes: 8 << 20)
        decoder.append(contentsOf: Array(buffer.dropFirst(2)))
        var decoded: [ClientFrame] = []
        while let frame = try decoder.nextFrame() { decoded.append(try WireCodec.decodeClientFrame(frame)) }
        #expect(decoded == Samples.clientFrames)

        var replies: [UInt8] = []
        for frame in Samples.serverFrames { WireCodec.append(frame, to: &replies) }
        decoder.append(contentsOf: replies)
        var decodedReplies: [ServerFrame] = []
        while let frame = try decoder.nextFrame() { decodedReplies.append(try WireCodec.decodeServerFrame(frame)) }
        #expect(decodedReplies == Samples.serverFrames)
    }

    @Test func decodesAFrameSliceInTheMiddleOfItsStorage() throws {
        // Slices from the decoder rarely start at index 0 of their array.
        let frame = Samples.serverFrames[0]
        let bytes = [0xFF, 0xFF, 0xFF] + payload(of: frame) + [0xFF]
        #expect(try WireCodec.decodeServerFrame(bytes[3..<(bytes.count - 1)]) == frame)
    }
}
