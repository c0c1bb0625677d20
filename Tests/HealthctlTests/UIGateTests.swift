@testable import healthctl
import Testing

@Suite struct UIGateTests {
    static let gate = UIGate(secret: "0123456789abcdef0123456789abcdef", port: 4321)
    static let host = ["host": "127.0.0.1:4321"]

    @Test func theSecretPathIsLetThrough() {
        #expect(Self.gate.check(method: "GET", path: "/s/0123456789abcdef0123456789abcdef/", headers: Self.host) == .allowed(route: ""))
        #expect(Self.gate.check(method: "GET", path: "/s/0123456789abcdef0123456789abcdef/api/apps", headers: ["host": "localhost:4321"])
            == .allowed(route: "api/apps"))
        #expect(Self.gate.pageURL == "http://127.0.0.1:4321/s/0123456789abcdef0123456789abcdef/")
    }

    @Test(arguments: [
        "/", "/s/", "/s//", "/s/0123456789abcdef0123456789abcdef", "/s/0123456789abcdef0123456789abcdeX/",
        "/s/0123456789abcdef0123456789abcdef0/", "/s/0123456789ABCDEF0123456789ABCDEF/", "/x/0123456789abcdef0123456789abcdef/",
    ])
    func aWrongOrMissingSecretIsRefused(path: String) {
        #expect(Self.gate.check(method: "GET", path: path, headers: Self.host) == .refused(reason: "wrong or missing secret"))
    }

    @Test(arguments: [nil, "evil.example", "evil.example:4321", "127.0.0.1:4322", "127.0.0.1", "[::1]:4321"])
    func aForeignHostIsRefused(host: String?) {
        let headers = host.map { ["host": $0] } ?? [:]
        #expect(Self.gate.check(method: "GET", path: "/s/0123456789abcdef0123456789abcdef/", headers: headers)
            == .refused(reason: "foreign or missing Host"))
    }

    @Test func originsMustBeThePagesOwn() {
        let path = "/s/0123456789abcdef0123456789abcdef/api/grant"
        #expect(Self.gate.check(method: "POST", path: path, headers: Self.host.merging(["origin": "http://127.0.0.1:4321"]) { $1 })
            == .allowed(route: "api/grant"))
        for origin in ["http://evil.example", "null", "https://127.0.0.1:4321", "http://127.0.0.1:4322"] {
            #expect(Self.gate.check(method: "GET", path: path, headers: Self.host.merging(["origin": origin]) { $1 })
                == .refused(reason: "foreign Origin"))
        }
        #expect(Self.gate.check(method: "POST", path: path, headers: Self.host) == .refused(reason: "a change must come from the page (no Origin)"))
    }

    @Test func secretsAreFreshAndLong() {
        let first = UIGate.newSecret()
        #expect(first.count == 64)
        #expect(first.allSatisfy { $0.isHexDigit })
        #expect(first != UIGate.newSecret())
    }
}
