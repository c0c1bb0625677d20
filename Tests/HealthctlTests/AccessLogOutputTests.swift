import BrokerModel
@testable import healthctl
import Testing

@Suite struct AccessLogOutputTests {
    static let entries = [
        AccessLogEntry(atMicros: Samples.june1 + 5 * Samples.second, appID: "demo.steps", operation: "read", type: .stepCount, sampleCount: 4_320, method: "Statistics"),
        AccessLogEntry(atMicros: Samples.june1, appID: "demo.watch", operation: "write", type: .heartRate, sampleCount: 1_000, method: "AdminImport"),
        AccessLogEntry(atMicros: Samples.june1 - Samples.second, appID: "old", operation: "read", type: .heartRate, sampleCount: 1),
    ]

    @Test func aTableInUTC() {
        #expect(TextOutput.accessLogTable(Self.entries, time: .universal) == """
            WHEN (UTC)            APP         CALL         OPERATION  TYPE       SAMPLES
            2025-06-01T10:00:05Z  demo.steps  Statistics   read       stepCount  4320
            2025-06-01T10:00:00Z  demo.watch  AdminImport  write      heartRate  1000
            2025-06-01T09:59:59Z  old         -            read       heartRate  1
            """)
    }

    @Test func aTableInLocalTimeByDefault() {
        let lines = TextOutput.accessLogTable(Self.entries).split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("WHEN (LOCAL)"))
        // The process's zone (TZ), to the second, with its abbreviation.
        #expect(lines[1].hasPrefix(LocalTime.secondString(micros: Self.entries[0].atMicros) + "  demo.steps  Statistics"))
        #expect(LocalTime.secondString(micros: Self.entries[0].atMicros).count >= 19)
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
                "method" : "AdminImport",
                "operation" : "write",
                "sample_count" : 1000,
                "type" : "HKQuantityTypeIdentifierHeartRate"
              }
            ]
            """)
    }
}
