import BrokerModel
import Testing
@testable import BrokerWire

@Suite struct TypeDatesTests {
    @Test func equalityGoesByMeaningNotOrder() {
        let forward = TypeDates(entries: [.init(type: .stepCount, dateMicros: 1), .init(type: .heartRate, dateMicros: 2)])
        let backward = TypeDates(entries: [.init(type: .heartRate, dateMicros: 2), .init(type: .stepCount, dateMicros: 1)])
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward == [.stepCount: 1, .heartRate: 2])
        #expect(forward != [.stepCount: 1, .heartRate: 3])
        #expect(forward != [.stepCount: 1])
    }

    @Test func aRepeatedTypeKeepsItsLastDate() {
        let repeated = TypeDates(entries: [.init(type: .stepCount, dateMicros: 1), .init(type: .stepCount, dateMicros: 5)])
        #expect(repeated.dictionary == [.stepCount: 5])
        #expect(repeated == [.stepCount: 5])
        #expect(repeated.hashValue == TypeDates([.stepCount: 5]).hashValue)
        #expect(repeated.mapValues { $0 * 2 } == [.stepCount: 10])
    }

    @Test func mapValuesBuildsOneEntryPerType() {
        let dates: TypeDates = [.stepCount: 7, .heartRate: -3, .bodyMass: 0]
        #expect(dates.mapValues { "\($0)" } == [.stepCount: "7", .heartRate: "-3", .bodyMass: "0"])
        #expect(TypeDates([:]).mapValues { $0 }.isEmpty)
        #expect(TypeDates([:]).isEmpty)
        #expect(!dates.isEmpty)
    }

    @Test func bothDecodersKeepARepeatedTypesLastDate() throws {
        // ServerFrame call 7 with an EarliestAuthorizedSampleDateResponse (field 23) holding steps at
        // 1, then steps at 9: made by hand, since the encoders never repeat a type.
        let steps = Array("HKQuantityTypeIdentifierStepCount".utf8)
        func entry(_ micros: UInt8) -> [UInt8] {
            let body: [UInt8] = [0x0A, UInt8(steps.count)] + steps + [0x10, micros]
            return [0x0A, UInt8(body.count)] + body
        }
        let list = entry(1) + entry(9)
        let payload: [UInt8] = [0x08, 0x07, 0xBA, 0x01, UInt8(list.count)] + list
        let direct = try WireCodec.decodeServerFrame(payload[...])
        let unpacked = try ProtoReference.serverFrameByProtobufC(payload[...])
        #expect(unpacked == direct)
        guard case .earliestAuthorizedSampleDate(let dates)? = direct.response else {
            Issue.record("not an EarliestAuthorizedSampleDate reply")
            return
        }
        #expect(dates.dates.count == 2)
        #expect(TypeDates(proto: dates) == [.stepCount: 9])
    }
}
