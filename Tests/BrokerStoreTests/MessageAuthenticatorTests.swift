import BrokerCrypto
import Testing

@Suite("MessageAuthenticator")
struct MessageAuthenticatorTests {
    let message = Array("anchor:app.example:42".utf8)

    @Test func verifyAcceptsItsOwnTag() {
        let mac = MessageAuthenticator(key: MessageAuthenticator.generateKey())
        let tag = mac.tag(message)
        #expect(tag.count == MessageAuthenticator.tagLength)
        #expect(mac.tag(message) == tag)
        #expect(mac.verify(tag, for: message))
        #expect(mac.verify(mac.tag([]), for: []))
    }

    @Test func tagIsHMACSHA512Truncated() {
        let mac = MessageAuthenticator(key: Array(1...32))
        #expect(hex(mac.tag(Array("anchor".utf8))) == "cc1c4804c5d7d61ffd3e6d2c4d10aa0276cbe52ab759503180a31c6d0e0ccd32")
    }

    @Test func verifyRefusesAFlippedBit() {
        let mac = MessageAuthenticator(key: MessageAuthenticator.generateKey())
        let tag = mac.tag(message)
        for bit in [0, 7, 100, 255] {
            var badTag = tag
            badTag[bit / 8] ^= UInt8(1 << (bit % 8))
            #expect(!mac.verify(badTag, for: message))
        }
        var badMessage = message
        badMessage[0] ^= 0x01
        #expect(!mac.verify(tag, for: badMessage))
        #expect(!mac.verify(Array(tag.dropLast()), for: message))
        #expect(!mac.verify([], for: message))
    }

    @Test func verifyRefusesAnotherKey() {
        let first = MessageAuthenticator(key: MessageAuthenticator.generateKey())
        let second = MessageAuthenticator(key: MessageAuthenticator.generateKey())
        #expect(!second.verify(first.tag(message), for: message))
    }

    @Test func generatedKeysAreFreshAndFullLength() {
        let first = MessageAuthenticator.generateKey()
        let second = MessageAuthenticator.generateKey()
        #expect(first.count == MessageAuthenticator.keyLength)
        #expect(first.count == 32)
        #expect(first != second)
    }
}
