import BrokerModel
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

    /// Every method of the generated method table has a sample call, and so has a call with no
    /// request case this build knows.
    @Test func everyRequestCaseIsCovered() {
        var methods = Set<ProtoMethod>()
        var unknown = false
        for case .call(let call) in Samples.clientFrames {
            if let request = call.request { methods.insert(request.method) } else { unknown = true }
        }
        #expect(methods == Set(ProtoMethod.allCases))
        #expect(unknown)
    }

    @Test func everyResponseCaseIsCovered() {
        var cases = Set<String>()
        for frame in Samples.serverFrames {
            guard let response = frame.response else { continue }
            // The case label, without describing (slowly) a page of thousands of samples.
            cases.insert(Mirror(reflecting: response).children.first?.label ?? String(describing: response))
        }
        // The response case of every unary method of the method table (named as the case is: the
        // method's name, lower camel case), and the stream item.
        let unary = ProtoMethod.allCases.filter { !$0.isServerStreaming }.map { $0.name.prefix(1).lowercased() + $0.name.dropFirst() }
        #expect(cases == Set(unary + ["streamItem"]))
    }

    @Test func everyStreamItemAndPromptEventCaseIsCovered() {
        var items = Set<String>()
        var resolutions = Set<PromptResolution>()
        var raised = false
        for frame in Samples.serverFrames {
            guard case .streamItem(let proto)? = frame.response, let item = try? StreamItem(proto: proto) else { continue }
            switch item {
            case .ping: items.insert("ping")
            case .promptEvent(.raised): items.insert("promptEvent"); raised = true
            case .promptEvent(.resolved(_, let resolution)): items.insert("promptEvent"); resolutions.insert(resolution)
            case .samples: items.insert("samples")
            case .anchoredPage: items.insert("anchoredPage")
            case .observed: items.insert("observed")
            }
        }
        #expect(items == ["ping", "promptEvent", "samples", "anchoredPage", "observed"])
        #expect(raised)
        #expect(resolutions == Set(PromptResolution.allCases))
    }

    @Test func everyDecisionShapeIsCovered() {
        // Each share decision (and undecided) and each read decision shape (and undecided) appears.
        func shape(_ read: ReadDecision?) -> String {
            switch read {
            case nil: "undecided"
            case .deny: "deny"
            case .full: "full"
            case .limited: "limited"
            }
        }
        let all = ["undecided", "deny", "full", "limited"]
        #expect(Set(Samples.decisions.map { shape($0.read) }) == Set(all))
        #expect(Set(Samples.grants.map { shape($0.read) }) == Set(all))
        #expect(Set(Samples.decisions.map(\.share)) == [nil, .deny, .allow])
        #expect(Set(Samples.grants.map(\.share)) == [nil, .deny, .allow])
    }

    @Test func everyEnumValueRoundTrips() throws {
        for status in AuthorizationStatus.allCases {
            let frame = ServerFrame(callID: 1, response: .authorizationStatus(status))
            #expect(try roundTrip(frame) == frame)
        }
        for status in RequestStatus.allCases {
            let frame = ServerFrame(callID: 1, response: .requestStatus(status))
            #expect(try roundTrip(frame) == frame)
        }
        for resolution in PromptResolution.allCases {
            let frame = ServerFrame(callID: 1, response: .streamItem(.promptEvent(.resolved(promptID: 3, resolution: resolution))))
            #expect(try roundTrip(frame) == frame)
        }
        let shares: [ShareDecision?] = [nil] + ShareDecision.allCases.map(Optional.some)
        let reads: [ReadDecision?] = [nil, .deny, .full, .limited(fromMicros: 0), .limited(fromMicros: -1), .limited(fromMicros: 7)]
        for share in shares {
            for read in reads {
                let decision = TypeDecision(type: .stepCount, share: share, read: read)
                let call = ClientFrame.call(Call(callID: 1, request: .adminAnswerPrompt(promptID: 1, decisions: [decision])))
                #expect(try roundTrip(call) == call)
                let grant = Grant(type: .stepCount, share: share, read: read, decidedMicros: 5, decidedBy: "agent")
                let list = ServerFrame(callID: 1, response: .adminListGrants([grant]))
                #expect(try roundTrip(list) == list)
            }
        }
    }

    @Test func characteristicValueNilAndEmptyAreDistinguished() throws {
        for value: String? in [nil, "", "A+"] {
            let characteristic = CharacteristicValue(type: .bloodType, value: value)
            let set = ClientFrame.call(Call(callID: 1, request: .adminSetCharacteristic(characteristic)))
            #expect(try roundTrip(set) == set)
            let read = ServerFrame(callID: 1, response: .readCharacteristics([characteristic]))
            guard case .readCharacteristics(let values)? = try roundTrip(read).response else {
                Issue.record("not characteristics")
                continue
            }
            #expect(values.values.map { CharacteristicValue(proto: $0).value } == [value])
        }
    }

    @Test func explanationEffectiveReadFromZeroComesBackAsNil() throws {
        // effective_read_from_us has no presence bit: 0 is how nil travels.
        let explanation = Explanation(grant: Samples.grants[1], earliestPermittedMicros: 9, effectiveReadFromMicros: 0, text: "x")
        guard case .adminExplain(let proto)? = try roundTrip(ServerFrame(callID: 1, response: .adminExplain(explanation))).response
        else {
            Issue.record("not an explanation")
            return
        }
        let decoded = Explanation(proto: proto)
        #expect(decoded.effectiveReadFromMicros == nil)
        #expect(decoded.grant == Samples.grants[1])
    }

    @Test func earliestAuthorizedSampleDatesEncodeTheSameWhateverTheInsertionOrder() throws {
        let entries = (0..<50).map { (ObjectType("HKType\($0)-ü"), Int64($0) * -1_000_003) }
        var forward: [ObjectType: Int64] = [:]
        for (type, date) in entries { forward[type] = date }
        var backward: [ObjectType: Int64] = Dictionary(minimumCapacity: 200)
        for (type, date) in entries.reversed() { backward[type] = date }
        let first = payload(of: ServerFrame(callID: 1, response: .earliestAuthorizedSampleDate(TypeDates(forward))))
        let second = payload(of: ServerFrame(callID: 1, response: .earliestAuthorizedSampleDate(TypeDates(backward))))
        #expect(first == second)
        #expect(try roundTrip(ServerFrame(callID: 1, response: .earliestAuthorizedSampleDate(TypeDates(backward))))
            == ServerFrame(callID: 1, response: .earliestAuthorizedSampleDate(TypeDates(forward))))
    }

    @Test func brokerInfoWriteCountersRoundTrip() throws {
        let frame = ServerFrame(callID: 1, response: .adminBrokerInfo(Samples.busyBroker))
        guard case .adminBrokerInfo(let proto)? = try roundTrip(frame).response else {
            Issue.record("not broker info")
            return
        }
        let info = BrokerInfo(proto: proto)
        #expect(info.framesSent == 1_234_567_890_123)
        #expect(info.writeCalls == UInt64.max - 1)
        #expect(info.powerLossDurable)
        #expect(info.walFsyncs == 987_654_321)
        #expect(info.consentAgents == 3)
        #expect(info.openPrompts == UInt32.max)
        #expect(info.prompts == Samples.busyBroker.prompts)
        #expect(info.prompts.first?.deadlineMicros == 1_700_000_300_654_321)
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
            #expect(apps.apps.map { AppInfo(proto: $0).pinnedUID } == [pinned])
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
