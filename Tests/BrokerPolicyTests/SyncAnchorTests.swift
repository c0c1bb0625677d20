@testable import BrokerModel
@testable import BrokerPolicy
import Testing

/// A toy keyed MAC for tests: 32 bytes from an FNV-1a-style mix of the key and the message (not secure, but deterministic and bit-sensitive).
func toyMAC(key: UInt64 = 0x5EED) -> ([UInt8]) -> [UInt8] {
    { message in
        var state: UInt64 = 0xcbf2_9ce4_8422_2325 ^ key
        for byte in message {
            state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        var tag: [UInt8] = []
        for index in 0..<32 {
            state = (state ^ UInt64(index)) &* 0x0000_0100_0000_01b3
            state ^= state >> 29
            tag.append(UInt8(truncatingIfNeeded: state >> 24))
        }
        return tag
    }
}

/// Verifies with `toyMAC(key:)`: equal length and bytes.
func toyVerify(key: UInt64 = 0x5EED) -> ([UInt8], [UInt8]) -> Bool {
    { message, tag in toyMAC(key: key)(message) == tag }
}

@Suite("SyncAnchor")
struct SyncAnchorTests {
    let app = "com.example.sync"

    func encode(_ sequence: Int64, app: String? = nil, type: ObjectType = .stepCount) -> [UInt8] {
        SyncAnchor.encode(sequence: sequence, appID: app ?? self.app, type: type, mac: toyMAC())
    }

    func decode(_ anchor: [UInt8], app: String? = nil, type: ObjectType = .stepCount, key: UInt64 = 0x5EED) throws -> Int64 {
        try SyncAnchor.decode(anchor, appID: app ?? self.app, type: type, verify: toyVerify(key: key))
    }

    /// Expects exactly INVALID_ARGUMENT "invalid anchor".
    func expectInvalid(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(thrownError(body) == BrokerError.invalidArgument("invalid anchor"), sourceLocation: sourceLocation)
    }

    @Test(arguments: [Int64(0), 1, 42, 1 << 40, .max])
    func roundTrip(_ sequence: Int64) throws {
        #expect(try decode(encode(sequence)) == sequence)
        #expect(try decode(encode(sequence, type: .heartRate), type: .heartRate) == sequence)
    }

    @Test func layout() {
        let anchor = encode(0x0102_0304_0506_0708)
        #expect(anchor.count == 9 + 32)
        #expect(Array(anchor[0..<9]) == [1, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Array(anchor[9...]) == toyMAC()(SyncAnchor.macInput(header: Array(anchor[0..<9]), appID: app, type: .stepCount)))
    }

    @Test func everyFlippedBitIsRefused() {
        let anchor = encode(123_456)
        for bit in 0..<(anchor.count * 8) {
            var forged = anchor
            forged[bit / 8] ^= 1 << UInt8(bit % 8)
            expectInvalid { _ = try decode(forged) }
        }
    }

    @Test func anotherAppsAnchorIsRefused() {
        expectInvalid { _ = try decode(encode(7, app: "com.example.other")) }
    }

    @Test func anotherTypesAnchorIsRefused() {
        expectInvalid { _ = try decode(encode(7, type: .heartRate), type: .stepCount) }
    }

    @Test func anotherKeysAnchorIsRefused() {
        expectInvalid { _ = try decode(encode(7), key: 0xBAD) }
    }

    @Test func wrongLengthsAreRefused() {
        let anchor = encode(9)
        expectInvalid { _ = try decode([]) }
        expectInvalid { _ = try decode([1]) }
        expectInvalid { _ = try decode(Array(anchor.prefix(9))) }
        expectInvalid { _ = try decode(Array(anchor.dropLast())) }
        expectInvalid { _ = try decode(anchor + [0]) }
        expectInvalid { _ = try decode(Array(repeating: 1, count: 9 + 1_000)) }
    }

    @Test func anotherVersionIsRefusedEvenWithAValidMAC() {
        var header = encode(5).prefix(9).map { $0 }
        header[0] = 2
        let tag = toyMAC()(SyncAnchor.macInput(header: header, appID: app, type: .stepCount))
        expectInvalid { _ = try decode(header + tag) }
    }

    @Test func appAndTypeAreUnambiguousInTheMAC() {
        let header = SyncAnchor.header(sequence: 1)
        let a = SyncAnchor.macInput(header: header, appID: "ab", type: ObjectType("c"))
        let b = SyncAnchor.macInput(header: header, appID: "a", type: ObjectType("bc"))
        #expect(a != b)
    }
}
