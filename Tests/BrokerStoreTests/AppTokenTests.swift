@testable import BrokerCrypto
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

    @Test func verifyAcceptsOnlyARegisteredAppsToken() {
        let token = AppToken.generate()
        let stored = AppToken.hash(token)
        #expect(AppToken.verify(token, storedHash: stored))
        #expect(!AppToken.verify(AppToken.generate(), storedHash: stored))
        #expect(!AppToken.verify(token, storedHash: nil))
        #expect(!AppToken.verify("", storedHash: nil))
    }

    @Test func anUnknownAppStillHashesAndComparesInFull() {
        /// Runs `verify` with counting hash and compare; returns the result and what the compare saw.
        func watched(_ token: String, _ stored: [UInt8]?) -> (Bool, hashes: Int, compared: [[UInt8]]) {
            var hashes = 0
            var compared: [[UInt8]] = []
            let result = AppToken.verify(
                token, storedHash: stored,
                hash: { hashes += 1; return AppToken.hash($0) },
                equal: { compared.append($1); return ConstantTime.equal($0, $1) })
            return (result, hashes, compared)
        }
        let token = AppToken.generate()
        let known = watched(token, AppToken.hash(token))
        let wrong = watched(AppToken.generate(), AppToken.hash(token))
        let unknown = watched(token, nil)
        #expect(known.0 && !wrong.0 && !unknown.0)
        for run in [known, wrong, unknown] {
            #expect(run.hashes == 1)
            #expect(run.compared.count == 1)
            #expect(run.compared.first?.count == AppToken.hashLength)
        }
        #expect(unknown.compared == [AppToken.absentAppHash])
    }

    @Test func aStandInMatchIsStillNoApp() {
        // Even a token whose hash equals the stand-in (as if someone found it) opens nothing.
        let result = AppToken.verify("any", storedHash: nil, hash: { _ in AppToken.absentAppHash }, equal: ConstantTime.equal)
        #expect(!result)
        #expect(AppToken.absentAppHash == AppToken.absentAppHash && AppToken.absentAppHash.count == AppToken.hashLength)
    }
}

