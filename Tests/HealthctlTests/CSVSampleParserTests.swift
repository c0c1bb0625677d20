import BrokerModel
@testable import healthctl
import Testing

@Suite struct CSVSampleParserTests {
    @Test func fieldsSplitWithQuotes() throws {
        #expect(try CSVFields.split("a,b,,c") == ["a", "b", "", "c"])
        #expect(try CSVFields.split(#""a,b","say ""hi""",x"#) == ["a,b", #"say "hi""#, "x"])
        #expect(try CSVFields.split("") == [""])
        #expect(throws: SampleLineError.self) { try CSVFields.split(#""open"#) }
        #expect(throws: SampleLineError.self) { try CSVFields.split(#""a"b,c"#) }
    }

    @Test func rowsFollowTheHeader() throws {
        let parser = try CSVSampleParser(header: "uuid,type,start,end,value,unit")
        let sample = try parser.sample(from: "0B5C7E1A-2F4D-4E6B-8A9C-1D2E3F4A5B6C,stepCount,2025-06-01T10:00:00Z,2025-06-01T10:01:00Z,42,count")
        #expect(sample == Sample(
            uuid: "0B5C7E1A-2F4D-4E6B-8A9C-1D2E3F4A5B6C", type: .stepCount, startMicros: Samples.june1,
            endMicros: Samples.june1 + 60_000_000, value: .quantity(Quantity(42, "count"))))
        let derived = try parser.sample(from: ",heartRate,1748772000000000,1748772000000000,61,")
        #expect(derived.value == .quantity(Quantity(61, "count/min")))
        #expect(SampleUUID.bytes(of: derived.uuid) != nil)
    }

    @Test func columnsMayComeInAnyOrderAndUUIDMayBeMissing() throws {
        let parser = try CSVSampleParser(header: " value , type,end,start")
        let sample = try parser.sample(from: "5.5,distanceWalkingRunning,2025-06-01T10:01:00Z,2025-06-01T10:00:00Z")
        #expect(sample.value == .quantity(Quantity(5.5, "m")))
        #expect(sample.startMicros == Samples.june1)
    }

    @Test func badHeadersAndRowsAreExplained() throws {
        #expect(throws: SampleLineError.self) { try CSVSampleParser(header: "type,start,end") }
        #expect(throws: SampleLineError.self) { try CSVSampleParser(header: "type,start,end,value,colour") }
        #expect(throws: SampleLineError.self) { try CSVSampleParser(header: "type,start,end,value,value") }
        let parser = try CSVSampleParser(header: "type,start,end,value,unit")
        func message(_ row: String) -> String {
            do {
                _ = try parser.sample(from: row)
                return ""
            } catch {
                return error.message
            }
        }
        #expect(message("sleepAnalysis,2025-06-01T10:00:00Z,2025-06-01T10:00:00Z,1,").contains("quantity samples only"))
        #expect(message("stepCount,2025-06-01T10:00:00Z,2025-06-01T10:00:00Z,lots,count").contains("not a number"))
        #expect(message("stepCount,yesterday,2025-06-01T10:00:00Z,1,count").contains("start 'yesterday'"))
        #expect(message("stepCount,2025-06-01T10:00:00Z,2025-06-01T10:00:00Z,1").contains("4 fields; the header has 5"))
        #expect(message("stepCount,2025-06-01T10:00:00Z,2025-06-01T10:00:00Z,1,mi").contains("unit \"mi\""))
    }
}
