import BrokerCrypto
import Testing

@Suite("AppToken")
struct AppTokenTests {
    @Test func generatedTokensAreUniqueAndPrefixed() {
        let tokens = (0..<200).map { _ in AppToken.generate() }
        #expect(Set(tokens).count == tokens.count)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for token in tokens {
            #expect(token.hasPrefix("hbt_"))
            let body = token.dropFirst(AppToken.prefix.count)
            #expect(body.count == 43)  // 32 bytes, URL-safe base64, no padding
            #expect(body.allSatisfy { alphabet.contains($0) })
        }
    }

    @Test func hashRoundTripsThroughMatches() {
        let token = AppToken.generate()
        let hash = AppToken.hash(token)
        #expect(hash.count == 32)
        #expect(AppToken.hash(token) == hash)
        #expect(AppToken.matches(token, hash: hash))
    }

    @Test func hashIsUnkeyedBLAKE2b256() {
        #expect(hex(AppToken.hash("abc")) == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
        #expect(hex(AppToken.hash("")) == "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8")
    }

    @Test func wrongTokenDoesNotMatch() {
        let token = AppToken.generate()
        let hash = AppToken.hash(token)
        #expect(!AppToken.matches(AppToken.generate(), hash: hash))
        #expect(!AppToken.matches(String(token.dropLast()), hash: hash))
        #expect(!AppToken.matches(token + "A", hash: hash))
        #expect(!AppToken.matches("", hash: hash))
    }

    @Test func truncatedOrAlteredHashDoesNotMatch() {
        let token = AppToken.generate()
        let hash = AppToken.hash(token)
        #expect(!AppToken.matches(token, hash: Array(hash.dropLast())))
        #expect(!AppToken.matches(token, hash: hash + [0]))
        #expect(!AppToken.matches(token, hash: []))
        var flipped = hash
        flipped[31] ^= 0x01
        #expect(!AppToken.matches(token, hash: flipped))
    }
}
