import Foundation
import HealthBrokerClient
import Testing

@Suite("Time-ordered sample UUIDs")
struct SampleUUIDTests {
    /// A fixed-sequence generator, so the random bits are known.
    private struct Counting: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            return state
        }
    }

    @Test func theLayoutIsVersion7WithTheMillisecondsFirst() throws {
        var generator = Counting(state: 0)
        let uuid = SampleUUID.make(unixMillis: 0x0123_4567_89AB, using: &generator)
        #expect(uuid.hasPrefix("01234567-89ab-7"))
        let bytes = Array(uuid.utf8)
        #expect(bytes.count == 36)
        #expect([bytes[8], bytes[13], bytes[18], bytes[23]] == Array("----".utf8))
        #expect("89ab".utf8.contains(bytes[19]), "the variant is 10xx")
        let parsed = try #require(UUID(uuidString: uuid))
        #expect(parsed.uuidString.lowercased() == uuid)
    }

    @Test func laterMillisecondsSortAfterEarlierOnesWhateverTheRandomBits() {
        var generator = SystemRandomNumberGenerator()
        let times: [UInt64] = [1, 2, 255, 256, 1_700_000_000_000, 1_700_000_000_001, 0xFFFF_FFFF_FFFF]
        let uuids = times.map { SampleUUID.make(unixMillis: $0, using: &generator) }
        #expect(uuids == uuids.sorted())
    }

    @Test func uuidsMadeInTheSameMillisecondDiffer() {
        var generator = SystemRandomNumberGenerator()
        let uuids = (0..<10_000).map { _ in SampleUUID.make(unixMillis: 42, using: &generator) }
        #expect(Set(uuids).count == uuids.count)
        #expect(Set(uuids.map { $0.prefix(13) }).count == 1, "they share the time field")
    }

    @Test func theDefaultCarriesTheCurrentTime() throws {
        let before = UInt64(Date().timeIntervalSince1970 * 1_000)
        let uuid = SampleUUID.make()
        let after = UInt64(Date().timeIntervalSince1970 * 1_000)
        let hex = uuid.replacingOccurrences(of: "-", with: "").prefix(12)
        let millis = try #require(UInt64(hex, radix: 16))
        #expect((before...after).contains(millis))
    }
}
