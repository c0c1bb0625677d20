import BrokerModel
import BrokerSupport
@testable import BrokerStore
import Testing

@Suite("Stored metadata text")
struct MetadataTextTests {
    @Test func randomStringsRoundTripDeterministically() throws {
        var random = SplitMix64(seed: 3)
        let pool: [Unicode.Scalar] = ["\"", "\\", "/", "\u{0}", "\u{1f}", "\u{7f}", "\n", "a", "Z", "é", "\u{301}", "ж", "心", "\u{FFFD}", "\u{10FFFF}", "🫀", " ", ",", ":", "{", "}"]
        func text() -> String {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<12, using: &random) { scalars.append(pool.randomElement(using: &random)!) }
            return String(scalars)
        }
        for _ in 0..<500 {
            var metadata: [String: String] = [:]
            for _ in 0..<Int.random(in: 0..<6, using: &random) { metadata[text()] = text() }
            let encoded = MetadataText.encode(metadata)
            #expect(try MetadataText.decode(encoded) == metadata)
            // Same map, other insertion order: same text.
            var reordered: [String: String] = [:]
            for key in metadata.keys.shuffled(using: &random) { reordered[key] = metadata[key] }
            #expect(MetadataText.encode(reordered) == encoded)
        }
        #expect(MetadataText.encode([:]) == "{}")
        #expect(MetadataText.encode(["b": "2", "a": "\u{0}"]) == #"{"a":"\u0000","b":"2"}"#)
    }

    @Test func readsStandardJSONAndRefusesAnythingElse() throws {
        #expect(try MetadataText.decode(#" { "k\u00e9" : "\ud83e\udec0\n\/" , "x":"" } "#) == ["ké": "🫀\n/", "x": ""])
        for bad in ["", "[]", #"{"a":1}"#, #"{"a":"b",}"#, #"{"a":"b"} x"#, #"{"a":"\ud83e"}"#, "{\"a\":\"\n\"}", #"{"a" "b"}"#] {
            let error = #expect(throws: BrokerError.self) { try MetadataText.decode(bad) }
            #expect(error?.code == .internal, "\(bad)")
        }
    }
}
