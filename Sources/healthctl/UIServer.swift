import BrokerHTTPTransport
import BrokerTransport
import Foundation

/// Routes the page's requests: the gate first (Host, Origin, secret), then the page and its two
/// assets, the event stream, and the JSON calls (answered when the admin call returns, on the loop
/// thread). Loop thread only, except the admin calls, which run as tasks.
final class UIServer {
    private let loop: EventLoop
    private let gate: UIGate
    private let hub: UIEventHub
    private let api: UIAPI

    /// Headers on every reply: nothing cached, the secret never sent on as a Referer, no framing,
    /// and only the page's own scripts, styles and connections.
    static let commonHeaders: [(String, String)] = [
        ("cache-control", "no-store"),
        ("referrer-policy", "no-referrer"),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("content-security-policy",
         "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    ]

    init(loop: EventLoop, gate: UIGate, hub: UIEventHub, api: UIAPI) {
        self.loop = loop
        self.gate = gate
        self.hub = hub
        self.api = api
    }

    /// Handles one request.
    func handle(_ request: HTTPRequest) {
        loop.assertInLoop()
        let route: String
        switch gate.check(method: request.method, path: request.path, headers: request.headers) {
        case .refused(let reason):
            return respond(request, 403, "Forbidden", "text/plain; charset=utf-8", Array("forbidden: \(reason)\n".utf8))
        case .allowed(let allowed):
            route = allowed
        }
        switch (request.method, route) {
        case ("GET", ""):
            respond(request, 200, "OK", "text/html; charset=utf-8", UIPage.html)
        case ("GET", "app.js"):
            respond(request, 200, "OK", "text/javascript; charset=utf-8", UIPage.script)
        case ("GET", "app.css"):
            respond(request, 200, "OK", "text/css; charset=utf-8", UIPage.style)
        case ("GET", "events"):
            guard let stream = request.startStream(headers: Self.commonHeaders + [("content-type", "text/event-stream")]) else { return }
            hub.add(stream)
        case (_, let call) where call.hasPrefix("api/"):
            Self.forward(request, route: String(call.dropFirst(4)), loop: loop, api: api)
        default:
            respond(request, 404, "Not Found", "text/plain; charset=utf-8", Array("not found\n".utf8))
        }
    }

    /// Runs the JSON call as a task and answers on the loop thread when it returns.
    private static func forward(_ request: HTTPRequest, route: String, loop: EventLoop, api: UIAPI) {
        let query = parseQuery(request.query)
        let method = request.method
        let body = request.body
        let work: @Sendable () async -> Void = {
            let reply = await api.handle(route: route, method: method, query: query, body: body)
            loop.execute {
                request.respond(
                    status: reply.status, reason: reply.status == 200 ? "OK" : "Error",
                    headers: commonHeaders + [("content-type", "application/json")], body: reply.body)
            }
        }
        Task(operation: work)
    }

    private func respond(_ request: HTTPRequest, _ status: Int, _ reason: String, _ contentType: String, _ body: [UInt8]) {
        request.respond(status: status, reason: reason, headers: Self.commonHeaders + [("content-type", contentType)], body: body)
    }

    /// `a=1&b=x%20y` → ["a": "1", "b": "x y"].
    static func parseQuery(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if let key = parts.first { result[key] = parts.count > 1 ? parts[1] : "" }
        }
        return result
    }
}
