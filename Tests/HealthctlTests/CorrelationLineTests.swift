import BrokerModel
import Foundation
import HealthBrokerClient
@testable import healthctl
import Testing

/// A correlation as one JSON line: written by `export` with its objects, read back as a correlation.
@Suite struct CorrelationLineTests {
    static let at: Int64 = 1_748_772_000_000_000

    static func reading(source: String = "") -> Sample {
        Sample(uuid: "0b5c7e1a-2f4d-4e6b-8a9c-1d2e3f4a5b60", type: .bloodPressure, startMicros: at, endMicros: at + 60_000_000, value: .correlation([
            Sample(uuid: "0b5c7e1a-2f4d-4e6b-8a9c-1d2e3f4a5b61", type: .bloodPressureSystolic, startMicros: at, endMicros: at + 60_000_000,
                   value: .quantity(Quantity(121, "mmHg"))),
            Sample(uuid: "0b5c7e1a-2f4d-4e6b-8a9c-1d2e3f4a5b62", type: .bloodPressureDiastolic, startMicros: at, endMicros: at + 60_000_000,
                   value: .quantity(Quantity(79, "mmHg"))),
        ]), metadata: ["cuff": "left arm"], sourceAppID: source)
    }

    @Test func anExportedCorrelationLineReadsBackAsTheCorrelation() throws {
        let line = SampleLineWriter.line(for: Self.reading(source: "com.example.cuff"))
        #expect(line.contains("\"objects\": [{"))
        let read = try JSONLineParser().sample(from: line)
        #expect(read.sourceAppID == "com.example.cuff")
        var expected = Self.reading(source: "com.example.cuff")
        expected.sourceAppID = read.sourceAppID
        #expect(read == expected)
    }

    @Test func objectsWithoutUUIDsGetDerivedOnesAndBadObjectsAreNamed() throws {
        let line = """
            {"type": "bloodPressure", "start": "2025-06-01T10:00:00Z", "objects": [{"type": "bloodPressureSystolic", "start": "2025-06-01T10:00:00Z", "value": 120, "unit": "mmHg"}, {"type": "bloodPressureDiastolic", "start": "2025-06-01T10:00:00Z", "value": 80}]}
            """
        let first = try JSONLineParser().sample(from: line)
        let second = try JSONLineParser().sample(from: line)
        #expect(first.uuid == second.uuid && first.objects.map(\.uuid) == second.objects.map(\.uuid))
        #expect(first.objects.map(\.type) == [.bloodPressureSystolic, .bloodPressureDiastolic])
        func error(_ line: String) -> String? {
            do { _ = try JSONLineParser().sample(from: line); return nil } catch { return error.message }
        }
        #expect(error(#"{"type": "bloodPressure", "start": "2025-06-01T10:00:00Z", "objects": [{"type": "stepCount", "start": "2025-06-01T10:00:00Z"}]}"#)?
            .hasPrefix("objects[0]: missing the value") == true)
        #expect(error(#"{"type": "bloodPressure", "start": "2025-06-01T10:00:00Z", "value": 1}"#)?.contains("give \"objects\"") == true)
        #expect(error(#"{"type": "stepCount", "start": "2025-06-01T10:00:00Z", "objects": []}"#)?.contains("quantity type") == true)
    }
}
