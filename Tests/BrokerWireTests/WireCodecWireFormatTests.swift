import BrokerCore
import Testing
@testable import BrokerWire

/// Exact bytes, written by hand from the .proto, so the codec is checked against the contract and
/// not only against itself.
@Suite("WireCodec wire format")
struct WireCodecWireFormatTests {
    @Test func unknownRequestEncodesAsACallWithNoRequestSet() {
        // ClientFrame.call (field 1) { call_id: 5 }
        #expect(payload(of: .call(Call(callID: 5, request: .unknown))) == [0x0A, 0x02, 0x08, 0x05])
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
        #expect(try WireCodec.decodeClientFrame(bytes[...]) == .call(Call(callID: 7, request: .unknown)))
    }

    @Test func callWithNoRequestDecodesAsUnknown() throws {
        let bytes: [UInt8] = [0x0A, 0x04, 0x08, 0x07, 0x18, 0x02]
        #expect(try WireCodec.decodeClientFrame(bytes[...]) == .call(Call(callID: 7, initialCredit: 2, request: .unknown)))
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
            == .call(Call(callID: 1, request: .adminRemoveApp(appID: "a\u{FFFD}b"))))
    }
}
