/// The source app an Apple Health `sourceName` (a phone, a watch, an app) is imported as.
enum AppleHealthSource {
    /// A stable, valid app id for `sourceName`: `apple-health.` + a readable slug + 8 hex digits of
    /// its SHA-1 (so names that slug alike, "Anna's iPhone" and "Anna’s iPhone", stay apart).
    static func appID(for sourceName: String) -> String {
        var slug = ""
        var dash = false
        for scalar in sourceName.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if dash, !slug.isEmpty { slug.append("-") }
                dash = false
                slug.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            } else {
                dash = true
            }
            if slug.utf8.count >= 40 { break }
        }
        if slug.isEmpty { slug = "source" }
        let hash = SHA1.digest(Array(sourceName.utf8)).prefix(4)
        let hex = hash.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
        return "apple-health.\(slug).\(hex)"
    }

    /// The name an app gets when the import registers it: the source's own name, cut to 200 bytes.
    static func displayName(for sourceName: String) -> String {
        let trimmed = sourceName.trimmingSpaces()
        guard !trimmed.isEmpty else { return "Apple Health source" }
        var name = ""
        for character in trimmed {
            guard name.utf8.count + String(character).utf8.count <= 200 else { break }
            name.append(character)
        }
        return name
    }
}
