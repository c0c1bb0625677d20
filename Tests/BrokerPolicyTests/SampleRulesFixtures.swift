@testable import BrokerModel
@testable import BrokerPolicy
import Testing

/// 1 hour in µs.
let hourMicros: Int64 = 3_600_000_000

/// An instant from an ISO-8601 UTC string (the test fails loudly on a typo).
func utc(_ text: String) -> Int64 {
    guard let micros = ISODate.parse(text) else { fatalError("bad test date \(text)") }
    return micros
}

/// A canonical lower-case UUID whose last group is `number` in hex.
func testUUID(_ number: Int) -> String {
    let hex = String(number, radix: 16)
    return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
}

/// A sample of `type` on 2026-01-01 from 10:00 to 11:00 UTC (by default) with `value`.
func testSample(_ number: Int = 1, _ type: ObjectType = .stepCount, _ value: SampleValue = .quantity(Quantity(100, "count")),
                start: Int64 = jan2026 + 10 * hourMicros, end: Int64 = jan2026 + 11 * hourMicros,
                metadata: [String: String] = [:]) -> Sample {
    Sample(uuid: testUUID(number), type: type, startMicros: start, endMicros: end, value: value, metadata: metadata)
}

/// Whether `actual` is within a relative `tolerance` of `expected` (absolute near zero).
func nearlyEqual(_ actual: Double, _ expected: Double, tolerance: Double = 1e-12) -> Bool {
    abs(actual - expected) <= tolerance * max(1, abs(expected))
}

/// The INVALID_ARGUMENT message `body` threw; records an issue for success or another code.
func invalidArgumentMessage(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    guard let error = thrownError(body) else {
        Issue.record("expected INVALID_ARGUMENT, got success", sourceLocation: sourceLocation)
        return ""
    }
    #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
    #expect(error.domain == .invalidArgument, sourceLocation: sourceLocation)
    return error.message
}
