import BrokerModel
import Testing
@testable import BrokerWire

/// The generated canonical JSON mapping (`Proto+JSON.pb.swift`) and the runtime's JSON parser and
/// printer: every sample frame of every method survives Proto → JSON → Proto, the pinned forms
/// follow protobuf's mapping, and bad input is an error naming its JSON path.
@Suite("Canonical JSON of the generated messages")
struct ProtoJSONTests {
    /// `message` → JSON text (pretty and compact) → message gives the same message back.
    private func checkRoundTrip<M: ProtoJSONMessage & ProtoMessage>(_ message: M, _ label: String) {
        for pretty in [true, false] {
            let text = message.jsonText(pretty: pretty)
            let back: M
            do {
                back = try M(jsonText: text)
            } catch {
                Issue.record("\(label): \(error) reading back \(text.prefix(300))")
                continue
            }
            #expect(back.encoded() == message.encoded(), "\(label)")
            if !"\(message)".contains("nan") { #expect(back == message, "\(label)") }
        }
    }

    @Test func everySampleClientFrameSurvivesJSON() {
        for frame in ProtoCodecTests.clientFrames {
            checkRoundTrip(frame.proto, Named(frame).testDescription)
        }
    }

    @Test func everySampleServerFrameSurvivesJSON() {
        for frame in ProtoCodecTests.serverFrames {
            checkRoundTrip(frame.proto, Named(frame).testDescription)
        }
        for message in ProtoCodecTests.protoOnlyServerFrames {
            var known = message
            known.unknownFieldNumbers = nil  // decoding only: never encoded, so never in JSON either
            checkRoundTrip(known, "\(message)")
        }
    }

    @Test func int64AsStringsUInt32AsNumbersBytesAsBase64() throws {
        var ping = Proto.PingResponse()
        ping.payload = [0, 1, 2, 0xFF]
        ping.brokerTimeMicros = -1_700_000_000_000_001
        ping.sequence = UInt64.max
        #expect(ping.jsonText(pretty: false) == #"{"payload":"AAEC/w==","brokerTimeUs":"-1700000000000001","sequence":"18446744073709551615"}"#)
        var stream = Proto.PingStreamRequest()
        stream.count = 3
        #expect(stream.jsonText(pretty: false) == #"{"count":3}"#)
        #expect(stream.jsonText() == "{\n  \"count\": 3\n}")
        #expect(Proto.PingStreamRequest().jsonText() == "{}")
    }

    @Test func enumsByNameUnknownNumbersAsNumbers() throws {
        var status = Proto.Status()
        status.code = .notFound
        status.domain = .domainNoData
        status.message = "no \"such\" app\n"
        #expect(status.jsonText(pretty: false) == #"{"code":"NOT_FOUND","domain":"DOMAIN_NO_DATA","message":"no \"such\" app\n"}"#)
        status.code = Proto.StatusCode(rawValue: 99)
        #expect(status.jsonText(pretty: false).hasPrefix(#"{"code":99,"#))
        #expect(try Proto.Status(jsonText: #"{"code": 99}"#).code.rawValue == 99)
        #expect(try Proto.Status(jsonText: #"{"code": "UNAUTHENTICATED"}"#).code == .unauthenticated)
    }

    @Test func aOneofIsItsOneSetField() throws {
        var call = Proto.Call()
        call.callID = 7
        var request = Proto.AdminListGrantsRequest()
        request.appID = "com.example.steps"
        call.request = .adminListGrants(request)
        #expect(call.jsonText(pretty: false) == #"{"callId":"7","adminListGrants":{"appId":"com.example.steps"}}"#)
        // An empty message case is still the case: the oneof is set.
        call.request = .adminListApps(Proto.AdminListAppsRequest())
        #expect(call.jsonText(pretty: false) == #"{"callId":"7","adminListApps":{}}"#)
        #expect(try Proto.Call(jsonText: #"{"call_id": 7, "admin_list_apps": {}}"#) == call)
    }

    @Test func inputTakesProtoNamesNumbersAsStringsAndNull() throws {
        let text = #"{"call_id": "12", "timeoutUs": 1e3, "initial_credit": "5", "ping": {"delay_us": null, "payload": "AQI"}}"#
        let call = try Proto.Call(jsonText: text)
        #expect(call.callID == 12)
        #expect(call.timeoutMicros == 1_000)
        #expect(call.initialCredit == 5)
        guard case .ping(let ping)? = call.request else { Issue.record("no ping case"); return }
        #expect(ping.payload == [1, 2])  // unpadded base64 accepted
        #expect(ping.delayMicros == 0)
        // A 64-bit number given as a JSON number keeps every digit.
        #expect(try Proto.Call(jsonText: #"{"callId": 18446744073709551615}"#).callID == UInt64.max)
    }

    @Test func errorsNameTheirPath() {
        func problem(_ text: String) -> String {
            do {
                _ = try Proto.Call(jsonText: text)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(problem(#"{"bogus": 1}"#) == "$.bogus: unknown field of Call")
        #expect(problem(#"{"save": {"samples": [{}, {"uuid": 5}]}}"#) == "$.save.samples[1].uuid: expected a string, found a number")
        #expect(problem(#"{"callId": "abc"}"#) == #"$.callId: expected an integer, found the string "abc""#)
        #expect(problem(#"{"initialCredit": 4294967296}"#) == "$.initialCredit: 4294967296 is out of range for UInt32")
        #expect(problem(#"{"callId": 1.5}"#) == "$.callId: 1.5 is not an integer")
        #expect(problem(#"{"ping": {}, "hello": {}}"#) == "$.hello: a second field of oneof request")
        #expect(problem(#"{"ping": {"payload": "!!"}}"#) == "$.ping.payload: invalid base64")
        #expect(problem(#"{"ping": []}"#) == "$.ping: expected an object, found an array")
        #expect(problem(#"[]"#) == "$: expected an object, found an array")
        #expect(problem(#"{"callId": 1,}"#).hasPrefix("$: invalid JSON at byte"))
        #expect(problem(#"{"callId": 1} x"#).hasPrefix("$: invalid JSON at byte"))
        #expect(problem(#"{"a": 1, "a": 2}"#).contains("duplicate member"))
        var status = Proto.Status()
        #expect(throws: ProtoJSONError("$.code", #""NOPE" is not a value of enum StatusCode"#)) {
            status = try Proto.Status(jsonText: #"{"code": "NOPE"}"#)
        }
        _ = status
    }

    @Test func theParserHandlesEscapesAndUnicode() throws {
        let value = try ProtoJSON.parse(#" {"s": "a\u00e9\ud83e\udec0\t\"\\\/", "n": -0.5e-3, "b": [true, false, null]} "#)
        #expect(value["s"] == .string("aé🫀\t\"\\/"))
        #expect(value["n"] == .number("-0.5e-3"))
        #expect(value["b"] == .array([.bool(true), .bool(false), .null]))
        #expect(value.text(pretty: false) == #"{"s":"aé🫀\t\"\\/","n":-0.5e-3,"b":[true,false,null]}"#)
        #expect(throws: ProtoJSONError.self) { try ProtoJSON.parse(#""\ud83e""#) }
        #expect(throws: ProtoJSONError.self) { try ProtoJSON.parse("01") }
    }

    @Test func base64RoundTripsEveryLength() {
        for count in 0..<40 {
            let bytes = patternBytes(count, seed: count)
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64.decode("A") == nil)
    }

    @Test func everyMethodHasADescriptorWithItsMessages() {
        #expect(ProtoDescriptors.methods.map(\.method) == ProtoMethod.allCases)
        let names = Set(ProtoDescriptors.messages.map(\.name))
        for method in ProtoDescriptors.methods {
            #expect(names.contains(method.request) && names.contains(method.response), "\(method.method)")
            // Every method reads an empty request.
            #expect((try? method.method.request(json: .object([]))) != nil, "\(method.method)")
        }
        let call = ProtoDescriptors.messages.first { $0.name == "Call" }
        #expect(call?.fields.first == ProtoFieldDescriptor(
            name: "call_id", jsonName: "callId", number: 1, type: "uint64", kind: .scalar, isRepeated: false, oneof: nil, doc: []))
        #expect(call?.fields.first { $0.name == "timeout_us" }?.doc == ["0: no deadline"])
        #expect(call?.fields.first { $0.name == "hello" }?.oneof == "request")
    }
}
