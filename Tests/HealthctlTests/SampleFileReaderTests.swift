import BrokerModel
import Foundation
@testable import healthctl
import Testing

@Suite struct SampleFileReaderTests {
    /// Writes `text` to a fresh temporary file and returns a reader of it.
    static func reader(_ text: String, format: SampleFileFormat = .jsonl) throws -> SampleFileReader {
        let path = NSTemporaryDirectory() + "healthctl-test-\(UUID().uuidString).\(format.rawValue)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return SampleFileReader(lines: try LineReader(path: path), format: format)
    }

    static func line(_ minute: Int, value: Int = 10) -> String {
        #"{"type": "stepCount", "start_us": \#(Int64(minute) * 60_000_000), "end_us": \#(Int64(minute + 1) * 60_000_000), "value": \#(value)}"#
    }

    @Test func batchesSkipBlankLinesAndCountLines() throws {
        let text = [Self.line(0), "", Self.line(1), "  ", Self.line(2) + "\r", Self.line(3)].joined(separator: "\n") + "\n"
        let reader = try Self.reader(text)
        let first = try #require(try reader.nextBatch(size: 2))
        #expect(first.samples.count == 2)
        #expect(first.lines == [1, 3])
        #expect(first.firstLine == 1)
        let second = try #require(try reader.nextBatch(size: 2))
        #expect(second.lines == [5, 6])
        #expect(second.firstLine == 4)
        #expect(try reader.nextBatch(size: 2) == nil)
    }

    @Test func aBadLineNamesItsNumber() throws {
        let reader = try Self.reader([Self.line(0), Self.line(1), "{oops", Self.line(3)].joined(separator: "\n"))
        _ = try reader.nextBatch(size: 2)
        #expect(throws: SampleFileError(line: 3, message: "not a JSON object (one sample per line)")) {
            try reader.nextBatch(size: 2)
        }
        #expect(reader.batchFirstLine == 3)
    }

    @Test func repeatedLinesAreDroppedAndConflictsRefused() throws {
        let reader = try Self.reader([Self.line(0), Self.line(0), Self.line(1)].joined(separator: "\n"))
        let batch = try #require(try reader.nextBatch(size: 10))
        #expect(batch.samples.count == 2)
        #expect(batch.repeats == 1)
        #expect(batch.lines == [1, 3])

        let uuid = "0b5c7e1a-2f4d-4e6b-8a9c-1d2e3f4a5b6c"
        let conflicting = try Self.reader("""
            {"uuid": "\(uuid)", "type": "stepCount", "start_us": 0, "value": 1}
            {"uuid": "\(uuid)", "type": "stepCount", "start_us": 0, "value": 2}
            """)
        #expect(throws: SampleFileError(line: 2, message: "uuid \(uuid) is also on line 1, with other content")) {
            try conflicting.nextBatch(size: 10)
        }
    }

    @Test func csvFilesStartWithTheirHeader() throws {
        let reader = try Self.reader("type,start,end,value\nstepCount,0,60000000,5\n\nheartRate,0,0,60\n", format: .csv)
        let batch = try #require(try reader.nextBatch(size: 10))
        #expect(batch.samples.map(\.type) == [.stepCount, .heartRate])
        #expect(batch.lines == [2, 4])
    }

    @Test func formatsFollowTheExtension() {
        #expect(SampleFileFormat.inferred(fromPath: "a/b.jsonl") == .jsonl)
        #expect(SampleFileFormat.inferred(fromPath: "b.JSON") == .jsonl)
        #expect(SampleFileFormat.inferred(fromPath: "b.csv") == .csv)
        #expect(SampleFileFormat.inferred(fromPath: "b.txt") == nil)
        #expect(SampleFileFormat.inferred(fromPath: "dir.csv/file") == nil)
    }

    @Test func aMissingFileIsReported() {
        #expect(throws: CommandFailure.self) { try LineReader(path: "/nonexistent/file.jsonl") }
    }
}
