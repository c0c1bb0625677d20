import BrokerModel
@testable import healthctl
import Testing

@Suite struct SampleUUIDTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
    ])
    func sha1KnownDigests(message: String, digest: String) {
        #expect(Self.hex(SHA1.digest(Array(message.utf8))) == digest)
    }

    @Test(arguments: [
        (55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"), (56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        (63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5"), (64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
        (65, "11655326c708d70319be2610e8a57d9a5b959d3b"), (119, "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56"),
        (120, "f34c1488385346a55709ba056ddd08280dd4c6d6"), (128, "ad5b3fdbcb526778c2839d2f151ea753995e26a0"),
    ])
    func sha1AtThePaddingBoundaries(length: Int, digest: String) {
        #expect(Self.hex(SHA1.digest(Array(repeating: UInt8(ascii: "a"), count: length))) == digest)
    }

    @Test func sha1OfAMillionAs() {
        #expect(Self.hex(SHA1.digest(Array(repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test func version5MatchesRFC4122() {
        // uuid5(NAMESPACE_DNS, "python.org"), the example in Python's uuid documentation.
        let dns = SampleUUID.bytes(of: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(SampleUUID.v5(namespace: dns, name: "python.org") == "886313e1-3b8a-5372-9b90-0c9aee199e5d")
    }

    @Test func uuidTextRoundTrips() {
        let text = "0123abcd-4567-89ef-0123-456789abcdef"
        #expect(SampleUUID.bytes(of: text).map(SampleUUID.format) == text)
        #expect(SampleUUID.bytes(of: text.uppercased()).map(SampleUUID.format) == text)
        #expect(SampleUUID.bytes(of: "0123abcd-4567-89ef-0123-456789abcde") == nil)
        #expect(SampleUUID.bytes(of: "0123abcd-4567-89ef-0123x456789abcdef") == nil)
        #expect(SampleUUID.bytes(of: "0123abcg-4567-89ef-0123-456789abcdef") == nil)
    }

    @Test func derivedUUIDsFollowTheContent() throws {
        let sample = Sample(uuid: "", type: .stepCount, startMicros: 0, endMicros: 60_000_000, value: .quantity(Quantity(42, "count")))
        let uuid = SampleUUID.derived(from: sample)
        #expect(uuid == SampleUUID.derived(from: sample))
        #expect(SampleUUID.bytes(of: uuid) != nil)
        #expect(Array(uuid)[14] == "5")
        var other = sample
        other.value = .quantity(Quantity(43, "count"))
        #expect(SampleUUID.derived(from: other) != uuid)
        other = sample
        other.metadata = ["k": "v"]
        #expect(SampleUUID.derived(from: other) != uuid)
        other = sample
        other.sourceAppID = "someone.else"
        other.uuid = "ignored"
        #expect(SampleUUID.derived(from: other) == uuid)
    }

    @Test func demoUUIDsDependOnSeedTypeAndStart() {
        let base = SampleUUID.demo(seed: 1, type: .stepCount, startMicros: 0)
        #expect(base == SampleUUID.demo(seed: 1, type: .stepCount, startMicros: 0))
        #expect(base != SampleUUID.demo(seed: 2, type: .stepCount, startMicros: 0))
        #expect(base != SampleUUID.demo(seed: 1, type: .heartRate, startMicros: 0))
        #expect(base != SampleUUID.demo(seed: 1, type: .stepCount, startMicros: 1))
    }
}
