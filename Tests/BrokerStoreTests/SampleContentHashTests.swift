import BrokerCore
import Testing
@testable import BrokerStore

/// The stored content hash must never change: rows saved by earlier versions are compared with it.
@Suite("SampleContent hash")
struct SampleContentHashTests {
    /// 64-bit FNV-1a of `bytes` from `basis`, big-endian: the definition, written out plainly.
    static func fnv1a(_ bytes: [UInt8], basis: UInt64) -> [UInt8] {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return (0..<8).map { UInt8(truncatingIfNeeded: hash >> (56 - 8 * UInt64($0))) }
    }

    @Test func theHashIsTwoFNV1aPassesOverTheEncoding() throws {
        let samples = [
            Fixture.steps(1, Fixture.base, Fixture.base + Fixture.minute, count: 12, metadata: ["device": "watch"]),
            Sample(uuid: Fixture.uuid(2), type: .sleepAnalysis, startMicros: 5, endMicros: 9, value: .category(1), metadata: [:]),
        ]
        for sample in samples {
            let content = try SampleContent(sample, sourceAppID: "com.example.app")
            #expect(content.hash.count == 16)
            #expect(content.hash == Self.fnv1a(content.encoding, basis: 0xcbf2_9ce4_8422_2325) + Self.fnv1a(content.encoding, basis: 0x8422_2325_cbf2_9ce4))
        }
    }

    @Test func aKnownEncodingHashesToItsKnownValue() {
        // FNV-1a 64 of "a" from the standard offset basis is 0xaf63dc4c8601ec8c.
        #expect(Self.fnv1a(Array("a".utf8), basis: 0xcbf2_9ce4_8422_2325) == [0xaf, 0x63, 0xdc, 0x4c, 0x86, 0x01, 0xec, 0x8c])
    }
}
