import BrokerModel
@testable import healthctl
import Testing

@Suite struct AccessLogOutputTests {
    static let entries = [
        AccessLogEntry(atMicros: Samples.june1 + 5 * Samples.second, appID: "demo.steps", operation: "read", type: .stepCount, sampleCount: 4_320),
        AccessLogEntry(atMicros: Samples.june1, appID: "demo.watch", operation: "write", type: .heartRate, sampleCount: 1_000),
    ]

    @Test func aTable() {
        #expect(TextOutput.accessLogTable(Self.entries) == """
            WHEN (UTC)            APP         OPERATION  TYPE       SAMPLES
            2025-06-01T10:00:05Z  demo.steps  read       stepCount  4320
            2025-06-01T10:00:00Z  demo.watch  write      heartRate  1000
            """)
        #expect(TextOutput.accessLogTable([]) == "no access recorded yet")
        #expect(TextOutput.accessLogTable([], appID: "a") == "no access recorded for a")
    }

    @Test func json() {
        #expect(JSONOutput.accessLog([]) == "[]")
        #expect(JSONOutput.accessLog([Self.entries[1]]) == """
            [
              {
                "alias" : "heartRate",
                "app_id" : "demo.watch",
                "at" : "2025-06-01T10:00:00.000000Z",
                "at_us" : 1748772000000000,
                "operation" : "write",
                "sample_count" : 1000,
                "type" : "HKQuantityTypeIdentifierHeartRate"
              }
            ]
            """)
    }
}
