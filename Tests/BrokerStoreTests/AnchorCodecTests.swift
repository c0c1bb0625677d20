import BrokerModel
import BrokerPolicy
import BrokerCrypto
import Testing

@Suite("AnchorCodec")
struct AnchorCodecTests {
    let key = MessageAuthenticator.generateKey()
    let app = "com.example.sync"
    var codec: AnchorCodec { AnchorCodec(key: key) }

    /// Expects exactly `SyncAnchor.invalid` (INVALID_ARGUMENT "invalid anchor").
    func expectInvalid(
        _ anchor: [UInt8], app: String? = nil, type: ObjectType = .stepCount, codec: AnchorCodec? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let position = try (codec ?? self.codec).decode(anchor, appID: app ?? self.app, type: type)
            Issue.record("decoded position \(position) from a bad anchor", sourceLocation: sourceLocation)
        } catch {
            #expect(error == SyncAnchor.invalid, sourceLocation: sourceLocation)
            #expect(error == BrokerError.invalidArgument("invalid anchor"), sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [Int64(0), 1, 42, 255, 256, 1 << 40, .max, -1, .min])
    func roundTrip(_ position: Int64) throws {
        let anchor = codec.encode(position: position, appID: app, type: .stepCount)
        #expect(anchor.first == 2)
        #expect(try codec.decode(anchor, appID: app, type: .stepCount) == position)
        let other = codec.encode(position: position, appID: app, type: .heartRate)
        #expect(try codec.decode(other, appID: app, type: .heartRate) == position)
    }

    @Test func sameInputsGiveTheSameBytes() {
        let first = codec.encode(position: 1234, appID: app, type: .stepCount)
        #expect(codec.encode(position: 1234, appID: app, type: .stepCount) == first)
        // A codec made again from the stored key (a restarted broker) makes the same anchor.
        #expect(AnchorCodec(key: key).encode(position: 1234, appID: app, type: .stepCount) == first)
    }

    @Test func differentInputsGiveUnrelatedBytes() {
        let anchors = [
            codec.encode(position: 1234, appID: app, type: .stepCount),
            codec.encode(position: 1235, appID: app, type: .stepCount),
            codec.encode(position: 1234, appID: "com.example.other", type: .stepCount),
            codec.encode(position: 1234, appID: app, type: .heartRate),
            AnchorCodec(key: MessageAuthenticator.generateKey()).encode(position: 1234, appID: app, type: .stepCount),
        ]
        for (index, anchor) in anchors.enumerated() {
            for other in anchors[(index + 1)...] {
                // Everything after the version byte differs, not just the tag: no byte lines up by design.
                let same = zip(anchor.dropFirst(), other.dropFirst()).filter { $0 == $1 }.count
                #expect(same < 8, "anchors \(index) share \(same) of \(anchor.count - 1) bytes")
            }
        }
    }

    @Test func everyAnchorHasTheSameLength() {
        #expect(AnchorCodec.anchorLength == 49)
        for position in [Int64(0), 1, 1 << 8, 1 << 16, 1 << 32, 1 << 48, .max, .min] {
            #expect(codec.encode(position: position, appID: app, type: .stepCount).count == AnchorCodec.anchorLength)
            #expect(codec.encode(position: position, appID: "a", type: .workout).count == AnchorCodec.anchorLength)
        }
    }

    @Test(arguments: [Int64(0), 0x0102_0304_0506_0708, 1 << 40, .max])
    func thePositionIsNotInClear(_ position: Int64) {
        let anchor = codec.encode(position: position, appID: app, type: .stepCount)
        let bits = UInt64(bitPattern: position)
        let bigEndian = (0..<8).reversed().map { UInt8(truncatingIfNeeded: bits >> (UInt64($0) * 8)) }
        for needle in [bigEndian, Array(bigEndian.reversed())] {
            let found = (0...(anchor.count - needle.count)).contains { Array(anchor[$0..<($0 + needle.count)]) == needle }
            #expect(!found)
        }
    }

    @Test func anotherAppTypeOrKeyIsRefused() {
        let anchor = codec.encode(position: 7, appID: app, type: .stepCount)
        expectInvalid(anchor, app: "com.example.other")
        expectInvalid(anchor, app: app + "x")
        expectInvalid(anchor, app: "")
        expectInvalid(anchor, type: .heartRate)
        expectInvalid(anchor, codec: AnchorCodec(key: MessageAuthenticator.generateKey()))
    }

    @Test func everyFlippedBitIsRefused() {
        let anchor = codec.encode(position: 123_456, appID: app, type: .stepCount)
        for bit in 0..<(anchor.count * 8) {
            var forged = anchor
            forged[bit / 8] ^= 1 << UInt8(bit % 8)
            expectInvalid(forged)
        }
        for index in anchor.indices {
            var forged = anchor
            forged[index] ^= 0xFF
            expectInvalid(forged)
        }
    }

    @Test func everyTruncationAndExtensionIsRefused() {
        let anchor = codec.encode(position: 99, appID: app, type: .stepCount)
        for length in 0..<anchor.count {
            expectInvalid(Array(anchor.prefix(length)))
            expectInvalid(Array(anchor.suffix(length)))
        }
        expectInvalid(anchor + [0])
        expectInvalid(anchor + anchor)
    }

    @Test func otherVersionsAreRefused() {
        let anchor = codec.encode(position: 5, appID: app, type: .stepCount)
        for version in [UInt8(0), 1, 3, 0xFF] {
            expectInvalid([version] + anchor.dropFirst())
        }
        expectInvalid([2] + [UInt8](repeating: 0, count: AnchorCodec.anchorLength - 1))
    }

    @Test(arguments: [Int64(0), 42, 1 << 40, .max])
    func versionOneAnchorsStillDecode(_ sequence: Int64) throws {
        let mac = MessageAuthenticator(key: key)
        let old = SyncAnchor.encode(sequence: sequence, appID: app, type: .stepCount) { mac.tag($0) }
        #expect(old.first == 1)
        #expect(try codec.decode(old, appID: app, type: .stepCount) == sequence)
        expectInvalid(old, app: "com.example.other")
        expectInvalid(old, type: .heartRate)
        expectInvalid(old, codec: AnchorCodec(key: MessageAuthenticator.generateKey()))
        var forged = old
        forged[8] ^= 1
        expectInvalid(forged)
        expectInvalid(Array(old.dropLast()))
    }

    /// Pins the construction: anchors saved by apps must keep opening after the code changes.
    ///
    /// The expected bytes were checked against a separate C program calling libsodium directly
    /// (kdf subkeys 1 and 2 under "hbanchor", keyed BLAKE2b-192 nonce, XChaCha20-Poly1305).
    @Test func aPinnedAnchorStillDecodes() throws {
        let fixed = AnchorCodec(key: Array(1...32))
        let anchor = fixed.encode(position: 0x0102_0304_0506_0708, appID: "com.example.pinned", type: .stepCount)
        #expect(hex(anchor) == "0203aa6d6c536e79edbe55dff0ecd55c3664ae8348aad4310bb2bcdbdc425e35dc1afcc3fed9046aca0fc7ef39eb7a89a9")
        #expect(try fixed.decode(anchor, appID: "com.example.pinned", type: .stepCount) == 0x0102_0304_0506_0708)
    }
}
