import BrokerModel
import Testing
@testable import BrokerWire

/// Exact bytes, written by hand from the .proto, so the codec is checked against the contract and
/// not only against itself.
@Suite("WireCodec wire format")
struct WireCodecWireFormatTests {
    @Test func unknownRequestEncodesAsACallWithNoRequestSet() {
        // ClientFrame.call (field 1) { call_id: 5 }
        #expect(payload(of: .call(Call(callID: 5, request: nil))) == [0x0A, 0x02, 0x08, 0x05])
    }

    @Test func cancelAndCreditUseTheirFields() {
        // ClientFrame.cancel (field 2) { call_id: 300 }
        #expect(payload(of: .cancel(callID: 300)) == [0x12, 0x03, 0x08, 0xAC, 0x02])
        // ClientFrame.credit (field 3) { call_id: 1, items: 64 }
        #expect(payload(of: .credit(callID: 1, items: 64)) == [0x1A, 0x04, 0x08, 0x01, 0x10, 0x40])
    }

    @Test func pingCallEncodesAsTheProtoSays() {
        // Call { call_id: 1, timeout_us: 2, initial_credit: 3, ping (11) { delay_us: 4, payload: "hi" } }
        let frame = ClientFrame.call(Call(
            callID: 1, timeoutMicros: 2, initialCredit: 3, request: .ping(PingRequest(delayMicros: 4, payload: [0x68, 0x69]))))
        let ping: [UInt8] = [0x08, 0x04, 0x12, 0x02, 0x68, 0x69]
        let call: [UInt8] = [0x08, 0x01, 0x10, 0x02, 0x18, 0x03, 0x5A, UInt8(ping.count)] + ping
        #expect(payload(of: frame) == [0x0A, UInt8(call.count)] + call)
    }

    @Test func statusFrameEncodesAsTheProtoSays() {
        // ServerFrame { call_id: 1, status (2) { code: NOT_FOUND, domain: NO_DATA, message: "x" } }
        let frame = ServerFrame(callID: 1, status: Status(code: .notFound, domain: .noData, message: "x"))
        #expect(payload(of: frame) == [0x08, 0x01, 0x12, 0x07, 0x08, 0x05, 0x10, 0x04, 0x1A, 0x01, 0x78])
    }

    @Test func okStatusIsSentAsAnEmptyStatusMessage() {
        #expect(payload(of: ServerFrame(callID: 2, status: .ok)) == [0x08, 0x02, 0x12, 0x00])
        #expect(payload(of: ServerFrame(callID: 2)) == [0x08, 0x02])
    }

    @Test func pinnedUIDTravelsAsHasPinnedUIDAndPinnedUID() {
        // Call { call_id: 1, admin_add_app (100) { app_id: "a", has_pinned_uid: true, pinned_uid: 7 } }
        let frame = ClientFrame.call(Call(callID: 1, request: .adminAddApp(AppRegistration(appID: "a", name: "", pinnedUID: 7))))
        let addApp: [UInt8] = [0x0A, 0x01, 0x61, 0x28, 0x01, 0x30, 0x07]
        let call: [UInt8] = [0x08, 0x01, 0xA2, 0x06, UInt8(addApp.count)] + addApp
        #expect(payload(of: frame) == [0x0A, UInt8(call.count)] + call)

        let unpinned = ClientFrame.call(Call(callID: 1, request: .adminAddApp(AppRegistration(appID: "a", name: ""))))
        #expect(payload(of: unpinned) == [0x0A, 0x08, 0x08, 0x01, 0xA2, 0x06, 0x03, 0x0A, 0x01, 0x61])
    }

    @Test func callWithAnUnknownRequestFieldDecodesAsUnknown() throws {
        // Call { call_id: 7, field 105 (a future method): {} } — 105 << 3 | 2 = 842 = 0xCA 0x06
        let bytes: [UInt8] = [0x0A, 0x05, 0x08, 0x07, 0xCA, 0x06, 0x00]
        #expect(try WireCodec.decodeClientFrame(bytes[...]) == .call(Call(callID: 7, request: nil)))
    }

    @Test func callWithNoRequestDecodesAsUnknown() throws {
        let bytes: [UInt8] = [0x0A, 0x04, 0x08, 0x07, 0x18, 0x02]
        #expect(try WireCodec.decodeClientFrame(bytes[...]) == .call(Call(callID: 7, initialCredit: 2, request: nil)))
    }

    @Test func unknownStatusAndDomainNumbersMapToUnknownAndNone() throws {
        // ServerFrame { call_id: 3, status { code: 99, domain: 77, message: "?" } }
        let bytes: [UInt8] = [0x08, 0x03, 0x12, 0x07, 0x08, 0x63, 0x10, 0x4D, 0x1A, 0x01, 0x3F]
        #expect(try WireCodec.decodeServerFrame(bytes[...])
            == ServerFrame(callID: 3, status: Status(code: .unknown, domain: .none, message: "?")))
    }

    @Test func negativeStatusAndDomainNumbersMapToUnknownAndNone() throws {
        // status { code: -1, domain: -5 }: negative enum values are 10-byte varints.
        let minusOne: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        let minusFive: [UInt8] = [0xFB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        let status: [UInt8] = [0x08] + minusOne + [0x10] + minusFive
        let bytes: [UInt8] = [0x12, UInt8(status.count)] + status
        #expect(try WireCodec.decodeServerFrame(bytes[...]) == ServerFrame(callID: 0, status: Status(code: .unknown)))
    }

    @Test func responseCaseThisBuildDoesNotKnowDecodesAsNoResponse() throws {
        // ServerFrame { call_id: 2, field 105: {} }
        let bytes: [UInt8] = [0x08, 0x02, 0xCA, 0x06, 0x00]
        #expect(try WireCodec.decodeServerFrame(bytes[...]) == ServerFrame(callID: 2))
    }

    @Test func invalidUTF8IsRepairedNotRefused() throws {
        // Call { call_id: 1, admin_remove_app (102) { app_id: 0x61 0xFF 0x62 } }
        let removeApp: [UInt8] = [0x0A, 0x03, 0x61, 0xFF, 0x62]
        let call: [UInt8] = [0x08, 0x01, 0xB2, 0x06, UInt8(removeApp.count)] + removeApp
        let bytes: [UInt8] = [0x0A, UInt8(call.count)] + call
        // protobuf-c 1.4 does not validate UTF-8; the codec repairs it on the way to a Swift String.
        #expect(try WireCodec.decodeClientFrame(bytes[...])
            == .call(Call(callID: 1, request: .adminRemoveApp(appID: "a\u{FFFD}b", deleteData: false))))
    }

    // MARK: Authorization and consent

    @Test func earliestAuthorizedSampleDatesTravelAsTypeDatesSortedByIdentifier() {
        // ServerFrame { call_id: 1, earliest_authorized_sample_date (23) {
        //   dates: { type: "a", date_us: 5 }, { type: "b", date_us: -1 }, { type: "c", date_us: 300 } } }
        let frame = ServerFrame(
            callID: 1,
            response: .earliestAuthorizedSampleDate([ObjectType("b"): -1, ObjectType("c"): 300, ObjectType("a"): 5]))
        let minusOne: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        let a: [UInt8] = [0x0A, 0x01, 0x61, 0x10, 0x05]
        let b: [UInt8] = [0x0A, 0x01, 0x62, 0x10] + minusOne
        let c: [UInt8] = [0x0A, 0x01, 0x63, 0x10, 0xAC, 0x02]
        let dates: [UInt8] = [0x0A, UInt8(a.count)] + a + [0x0A, UInt8(b.count)] + b + [0x0A, UInt8(c.count)] + c
        #expect(payload(of: frame) == [0x08, 0x01, 0xBA, 0x01, UInt8(dates.count)] + dates)
        #expect(payload(of: ServerFrame(callID: 1, response: .earliestAuthorizedSampleDate([:])))
            == [0x08, 0x01, 0xBA, 0x01, 0x00])
    }

    @Test func earliestAuthorizedSampleDatesDecodeInAnyOrderAndTheLastDuplicateWins() throws {
        // dates: { type: "b", date_us: 1 }, { type: "a", date_us: 2 }, { type: "b", date_us: 3 }
        let dates: [UInt8] = [
            0x0A, 0x05, 0x0A, 0x01, 0x62, 0x10, 0x01,
            0x0A, 0x05, 0x0A, 0x01, 0x61, 0x10, 0x02,
            0x0A, 0x05, 0x0A, 0x01, 0x62, 0x10, 0x03,
        ]
        let bytes: [UInt8] = [0x08, 0x01, 0xBA, 0x01, UInt8(dates.count)] + dates
        guard case .earliestAuthorizedSampleDate(let decoded)? = try WireCodec.decodeServerFrame(bytes[...]).response else {
            Issue.record("not an EarliestAuthorizedSampleDate reply")
            return
        }
        #expect(TypeDates(proto: decoded) == [ObjectType("a"): 2, ObjectType("b"): 3])
    }

    @Test func typeDecisionWithLimitedReadEncodesAsTheProtoSays() throws {
        // Call { call_id: 1, admin_answer_prompt (111) { prompt_id: 9,
        //   decisions: { type: "t", share: SHARE_ALLOW, read: READ_LIMITED, limited_from_us: 1000 } } }
        let frame = ClientFrame.call(Call(
            callID: 1,
            request: .adminAnswerPrompt(
                promptID: 9,
                decisions: [TypeDecision(type: ObjectType("t"), share: .allow, read: .limited(fromMicros: 1000))])))
        let decision: [UInt8] = [0x0A, 0x01, 0x74, 0x10, 0x02, 0x18, 0x03, 0x20, 0xE8, 0x07]
        let answer: [UInt8] = [0x08, 0x09, 0x12, UInt8(decision.count)] + decision
        let call: [UInt8] = [0x08, 0x01, 0xFA, 0x06, UInt8(answer.count)] + answer
        let bytes: [UInt8] = [0x0A, UInt8(call.count)] + call
        #expect(payload(of: frame) == bytes)
        #expect(try WireCodec.decodeClientFrame(bytes[...]) == frame)
    }

    @Test func undecidedAndUnlimitedDecisionsSendNoLimitedFrom() {
        // decisions: { type: "t", read: READ_FULL }, { type: "u", share: SHARE_DENY }, { type: "v" }
        let frame = ClientFrame.call(Call(
            callID: 1,
            request: .adminAnswerPrompt(promptID: 0, decisions: [
                TypeDecision(type: ObjectType("t"), read: .full),
                TypeDecision(type: ObjectType("u"), share: .deny),
                TypeDecision(type: ObjectType("v")),
            ])))
        let answer: [UInt8] = [
            0x12, 0x05, 0x0A, 0x01, 0x74, 0x18, 0x02,
            0x12, 0x05, 0x0A, 0x01, 0x75, 0x10, 0x01,
            0x12, 0x03, 0x0A, 0x01, 0x76,
        ]
        let call: [UInt8] = [0x08, 0x01, 0xFA, 0x06, UInt8(answer.count)] + answer
        #expect(payload(of: frame) == [0x0A, UInt8(call.count)] + call)
    }

    @Test func unknownDecisionNumbersDecodeAsUndecidedAndLimitedFromCountsOnlyWhenLimited() throws {
        // decisions: { type: "t", share: 7, read: 9, limited_from_us: 5 },
        //            { type: "u", share: SHARE_ALLOW, read: READ_FULL, limited_from_us: 5 }
        let answer: [UInt8] = [
            0x12, 0x09, 0x0A, 0x01, 0x74, 0x10, 0x07, 0x18, 0x09, 0x20, 0x05,
            0x12, 0x09, 0x0A, 0x01, 0x75, 0x10, 0x02, 0x18, 0x02, 0x20, 0x05,
        ]
        let call: [UInt8] = [0x08, 0x01, 0xFA, 0x06, UInt8(answer.count)] + answer
        let bytes: [UInt8] = [0x0A, UInt8(call.count)] + call
        // As the broker maps them (TypeDecision(proto:)).
        guard case .call(let decoded) = try WireCodec.decodeClientFrame(bytes[...]), case .adminAnswerPrompt(let request)? = decoded.request else {
            Issue.record("not an AdminAnswerPrompt call")
            return
        }
        #expect(decoded.callID == 1 && request.promptID == 0)
        #expect(request.decisions.map(TypeDecision.init(proto:)) == [
            TypeDecision(type: ObjectType("t")),
            TypeDecision(type: ObjectType("u"), share: .allow, read: .full),
        ])
    }

    @Test func promptResolvedStreamItemEncodesAsTheProtoSays() throws {
        // ServerFrame { call_id: 4, stream_item (3) { prompt_event (110) {
        //   resolved (2) { prompt_id: 7, resolution: RESOLUTION_CANCELLED } } } }
        let frame = ServerFrame(callID: 4, response: .streamItem(.promptEvent(.resolved(promptID: 7, resolution: .cancelled))))
        let bytes: [UInt8] = [0x08, 0x04, 0x1A, 0x09, 0xF2, 0x06, 0x06, 0x12, 0x04, 0x08, 0x07, 0x10, 0x02]
        #expect(payload(of: frame) == bytes)
        #expect(try WireCodec.decodeServerFrame(bytes[...]) == frame)
        #expect(!frame.endsCall)
    }

    @Test(arguments: [UInt8(0), 4, 99])
    func unspecifiedOrUnknownResolutionDecodesAsWithdrawn(resolution: UInt8) throws {
        // resolved { prompt_id: 7, resolution: n } (0 is not sent at all)
        let resolved: [UInt8] = resolution == 0 ? [0x08, 0x07] : [0x08, 0x07, 0x10, resolution]
        let event: [UInt8] = [0x12, UInt8(resolved.count)] + resolved
        let item: [UInt8] = [0xF2, 0x06, UInt8(event.count)] + event
        let bytes: [UInt8] = [0x08, 0x04, 0x1A, UInt8(item.count)] + item
        #expect(try modelItem(bytes[...]) == .promptEvent(.resolved(promptID: 7, resolution: .withdrawn)))
    }

    @Test func promptRaisedCarriesItsTypeListsInOrder() throws {
        // stream_item { prompt_event { raised (1) { prompt_id: 1, app_id: "a", share_types: "s",
        //   read_types: "r2", "r1", created_us: 2 } } }
        let prompt = Prompt(
            id: 1, appID: "a", appName: "", readUsage: "", shareUsage: "", shareTypes: [ObjectType("s")],
            readTypes: [ObjectType("r2"), ObjectType("r1")], createdMicros: 2)
        let raised: [UInt8] = [
            0x08, 0x01, 0x12, 0x01, 0x61, 0x32, 0x01, 0x73, 0x3A, 0x02, 0x72, 0x32, 0x3A, 0x02, 0x72, 0x31, 0x40, 0x02,
        ]
        let event: [UInt8] = [0x0A, UInt8(raised.count)] + raised
        let item: [UInt8] = [0xF2, 0x06, UInt8(event.count)] + event
        let frame = ServerFrame(callID: 4, response: .streamItem(.promptEvent(.raised(prompt))))
        #expect(payload(of: frame) == [0x08, 0x04, 0x1A, UInt8(item.count)] + item)
    }

    @Test func requestAuthorizationCallCarriesBothTypeLists() {
        // Call { call_id: 1, request_authorization (20) { share_types: "a", read_types: "b", "c" } }
        let frame = ClientFrame.call(Call(
            callID: 1, request: .requestAuthorization(share: [ObjectType("a")], read: [ObjectType("b"), ObjectType("c")])))
        let request: [UInt8] = [0x0A, 0x01, 0x61, 0x12, 0x01, 0x62, 0x12, 0x01, 0x63]
        let call: [UInt8] = [0x08, 0x01, 0xA2, 0x01, UInt8(request.count)] + request
        #expect(payload(of: frame) == [0x0A, UInt8(call.count)] + call)
    }

    @Test func fieldlessRequestsAndResponsesTravelAsEmptyMessages() {
        // Call { call_id: 1, earliest_permitted_sample_date (24) {} }, admin_watch_prompts (110),
        // admin_list_sources (115)
        #expect(payload(of: .call(Call(callID: 1, request: .earliestPermittedSampleDate)))
            == [0x0A, 0x05, 0x08, 0x01, 0xC2, 0x01, 0x00])
        #expect(payload(of: .call(Call(callID: 1, request: .adminWatchPrompts)))
            == [0x0A, 0x05, 0x08, 0x01, 0xF2, 0x06, 0x00])
        #expect(payload(of: .call(Call(callID: 1, request: .adminListSources)))
            == [0x0A, 0x05, 0x08, 0x01, 0x9A, 0x07, 0x00])
        // ServerFrame { call_id: 1, request_authorization (20) {} }, admin_answer_prompt (111),
        // admin_cancel_prompt (112), admin_set_characteristic (116)
        #expect(payload(of: ServerFrame(callID: 1, response: .requestAuthorization)) == [0x08, 0x01, 0xA2, 0x01, 0x00])
        #expect(payload(of: ServerFrame(callID: 1, response: .adminAnswerPrompt)) == [0x08, 0x01, 0xFA, 0x06, 0x00])
        #expect(payload(of: ServerFrame(callID: 1, response: .adminCancelPrompt)) == [0x08, 0x01, 0x82, 0x07, 0x00])
        #expect(payload(of: ServerFrame(callID: 1, response: .adminSetCharacteristic)) == [0x08, 0x01, 0xA2, 0x07, 0x00])
    }

    @Test func characteristicValueTravelsAsHasValueAndValue() {
        // ServerFrame { call_id: 1, read_characteristics (25) { values: { type: "t", has_value: true },
        //   values: { type: "u" } } }: an empty value is sent as has_value alone.
        let frame = ServerFrame(
            callID: 1,
            response: .readCharacteristics([
                CharacteristicValue(type: ObjectType("t"), value: ""),
                CharacteristicValue(type: ObjectType("u"), value: nil),
            ]))
        let values: [UInt8] = [0x0A, 0x05, 0x0A, 0x01, 0x74, 0x10, 0x01, 0x0A, 0x03, 0x0A, 0x01, 0x75]
        #expect(payload(of: frame) == [0x08, 0x01, 0xCA, 0x01, UInt8(values.count)] + values)
    }

    @Test func explanationWithoutAGrantSendsNoGrantAndNeverAsked() {
        // ServerFrame { call_id: 1, admin_explain (117) { earliest_permitted_us: 2, explanation: "x" } }
        let never = ServerFrame(
            callID: 1,
            response: .adminExplain(Explanation(grant: nil, earliestPermittedMicros: 2, effectiveReadFromMicros: nil, text: "x")))
        #expect(payload(of: never) == [0x08, 0x01, 0xAA, 0x07, 0x05, 0x18, 0x02, 0x2A, 0x01, 0x78])

        // { grant: { type: "t", share: SHARE_ALLOW }, ever_asked: true, earliest_permitted_us: 2,
        //   effective_read_from_us: 3, explanation: "x" }
        let asked = ServerFrame(
            callID: 1,
            response: .adminExplain(Explanation(
                grant: Grant(type: ObjectType("t"), share: .allow, decidedMicros: 0, decidedBy: ""),
                earliestPermittedMicros: 2, effectiveReadFromMicros: 3, text: "x")))
        let explain: [UInt8] = [0x0A, 0x05, 0x0A, 0x01, 0x74, 0x10, 0x02, 0x10, 0x01, 0x18, 0x02, 0x20, 0x03, 0x2A, 0x01, 0x78]
        #expect(payload(of: asked) == [0x08, 0x01, 0xAA, 0x07, UInt8(explain.count)] + explain)
    }

    @Test func unknownAuthorizationAndRequestStatusNumbersDecodeAsTheirNumber() throws {
        // Open enums keep a number this build does not name; the client reads it as the safe default
        // (not determined, unknown: HealthStore+Authorization).
        // ServerFrame { call_id: 1, authorization_status (21) { status: 5 } }
        #expect(try WireCodec.decodeServerFrame([0x08, 0x01, 0xAA, 0x01, 0x02, 0x08, 0x05])
            == ServerFrame(callID: 1, response: .authorizationStatus(.with { $0.status = Proto.AuthorizationStatus(rawValue: 5) })))
        // ServerFrame { call_id: 1, request_status (22) { status: 9 } }
        #expect(try WireCodec.decodeServerFrame([0x08, 0x01, 0xB2, 0x01, 0x02, 0x08, 0x09])
            == ServerFrame(callID: 1, response: .requestStatus(.with { $0.status = Proto.RequestStatus(rawValue: 9) })))
        // status: SHARING_AUTHORIZED, REQUEST_STATUS_UNNECESSARY
        #expect(payload(of: ServerFrame(callID: 1, response: .authorizationStatus(.sharingAuthorized)))
            == [0x08, 0x01, 0xAA, 0x01, 0x02, 0x08, 0x02])
        #expect(payload(of: ServerFrame(callID: 1, response: .requestStatus(.unnecessary)))
            == [0x08, 0x01, 0xB2, 0x01, 0x02, 0x08, 0x02])
    }

    @Test func brokerInfoSendsFramesSentAndWriteCalls() {
        // ServerFrame { call_id: 1, admin_broker_info (104) { frames_sent: 3, write_calls: 2 } }
        var info = BrokerInfo(
            brokerVersion: "", startedMicros: 0, appConnections: 0, adminConnections: 0, callsServed: 0,
            dataDirectory: "", brokerTimeMicros: 0)
        info.framesSent = 3
        info.writeCalls = 2
        #expect(payload(of: ServerFrame(callID: 1, response: .adminBrokerInfo(info)))
            == [0x08, 0x01, 0xC2, 0x06, 0x04, 0x40, 0x03, 0x48, 0x02])
    }
}
