/// Who may use the page of `healthctl ui`: the checks every request passes before anything else.
///
/// A request must name the server by its loopback address (a foreign `Host` means DNS rebinding
/// or a proxy), come from the page itself when it has an `Origin` (a foreign one is another site
/// driving the person's browser), carry an `Origin` when it changes something, and start its path
/// with `/s/SECRET/`. Anything else is refused with 403 before routing.
struct UIGate: Sendable {
    /// The secret every path starts with (`/s/SECRET/`).
    let secret: String
    /// The port the server listens on.
    let port: UInt16

    /// What the gate decided.
    enum Verdict: Equatable {
        /// Let through; `route` is the path after `/s/SECRET/` ("" for the page itself).
        case allowed(route: String)
        /// Refused with 403, for `reason` (told to the peer: it reveals nothing secret).
        case refused(reason: String)
    }

    /// The hosts the page answers to.
    var allowedHosts: [String] { ["127.0.0.1:\(port)", "localhost:\(port)"] }

    /// The page's own origins.
    var allowedOrigins: [String] { allowedHosts.map { "http://\($0)" } }

    /// The page's address, secret included.
    var pageURL: String { "http://127.0.0.1:\(port)/s/\(secret)/" }

    /// Checks one request.
    func check(method: String, path: String, headers: [String: String]) -> Verdict {
        guard let host = headers["host"]?.lowercased(), allowedHosts.contains(host) else {
            return .refused(reason: "foreign or missing Host")
        }
        if let origin = headers["origin"]?.lowercased(), !allowedOrigins.contains(origin) {
            return .refused(reason: "foreign Origin")
        }
        if method != "GET" && method != "HEAD" && headers["origin"] == nil {
            return .refused(reason: "a change must come from the page (no Origin)")
        }
        let prefix = Array("/s/".utf8)
        let bytes = Array(path.utf8)
        let secretBytes = Array(secret.utf8)
        let start = prefix.count
        let end = start + secretBytes.count
        guard bytes.count > end, bytes.starts(with: prefix), bytes[end] == UInt8(ascii: "/"),
              Self.constantTimeEqual(Array(bytes[start..<end]), secretBytes)
        else {
            return .refused(reason: "wrong or missing secret")
        }
        return .allowed(route: String(decoding: bytes[(end + 1)...], as: UTF8.self))
    }

    /// Compares without stopping at the first difference, so timing tells nothing of the secret.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// A fresh secret: 32 random bytes (the system's generator), hex.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }
}
