import HealthBrokerClient

/// Samples for the sample API tests.
enum SampleFixtures {
    /// 2023-11-14 22:13:20 UTC in µs.
    static let base: Int64 = 1_700_000_000_000_000

    /// A one-minute step sample numbered `index` (uuid "step-<index>", value index + 1).
    static func step(_ index: Int) -> Sample {
        let start = base + Int64(index) * 60_000_000
        return Sample(
            uuid: "step-\(index)", type: .stepCount, startMicros: start, endMicros: start + 60_000_000,
            value: .quantity(Quantity(Double(index + 1), "count")), sourceAppID: "com.example.app",
            createdMicros: base + 1)
    }

    /// `pages` pages of `perPage` consecutive step samples.
    static func pages(_ pages: Int, of perPage: Int) -> [[Sample]] {
        (0..<pages).map { page in (0..<perPage).map { step(page * perPage + $0) } }
    }
}
