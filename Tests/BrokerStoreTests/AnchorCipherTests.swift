import BrokerCrypto
import Testing

@Suite("AnchorCipher")
struct AnchorCipherTests {
    let cipher = AnchorCipher(key: MessageAuthenticator.generateKey())
    let associatedData = Array("app and type".utf8)

    @Test func opensWhatItSeals() {
        for plaintext in [[], [0], Array(0..<8), Array(repeating: 0xAB, count: 100)] as [[UInt8]] {
            let sealed = cipher.seal(plaintext, associatedData: associatedData)
            #expect(sealed.count == plaintext.count + AnchorCipher.overhead)
            #expect(cipher.open(sealed, associatedData: associatedData) == plaintext)
            #expect(cipher.open(sealed, associatedData: []) == nil)
        }
        #expect(cipher.open(cipher.seal([1], associatedData: []), associatedData: []) == [1])
    }

    @Test func sealingIsDeterministicAndTheNonceDependsOnEverything() {
        let sealed = cipher.seal([1, 2, 3], associatedData: associatedData)
        #expect(cipher.seal([1, 2, 3], associatedData: associatedData) == sealed)
        let nonce = sealed.prefix(AnchorCipher.nonceLength)
        #expect(cipher.seal([1, 2, 4], associatedData: associatedData).prefix(AnchorCipher.nonceLength) != nonce)
        #expect(cipher.seal([1, 2, 3], associatedData: associatedData + [0]).prefix(AnchorCipher.nonceLength) != nonce)
        // Length prefixes keep the split between associated data and plaintext in the nonce.
        #expect(cipher.seal([3], associatedData: [1, 2]).prefix(AnchorCipher.nonceLength)
            != cipher.seal([2, 3], associatedData: [1]).prefix(AnchorCipher.nonceLength))
    }

    @Test func refusesShortOrForgedInput() {
        #expect(cipher.open([], associatedData: associatedData) == nil)
        #expect(cipher.open([UInt8](repeating: 0, count: AnchorCipher.overhead - 1), associatedData: associatedData) == nil)
        #expect(cipher.open([UInt8](repeating: 0, count: AnchorCipher.overhead + 8), associatedData: associatedData) == nil)
        let sealed = cipher.seal(Array(0..<8), associatedData: associatedData)
        for index in sealed.indices {
            var forged = sealed
            forged[index] ^= 0x01
            #expect(cipher.open(forged, associatedData: associatedData) == nil)
        }
        let other = AnchorCipher(key: MessageAuthenticator.generateKey())
        #expect(other.open(sealed, associatedData: associatedData) == nil)
    }

    @Test func lengths() {
        #expect(AnchorCipher.keyLength == 32)
        #expect(AnchorCipher.nonceLength == 24)
        #expect(AnchorCipher.tagLength == 16)
        #expect(AnchorCipher.overhead == 40)
    }
}
