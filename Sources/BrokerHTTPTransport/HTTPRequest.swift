import BrokerTransport
import CH2O

/// One HTTP request h2o parsed, and its response: answered at once or later (after asynchronous
/// work, from the loop thread), or kept open as a stream (`startStream`).
///
/// The method, path, headers and body are copied out when the request arrives. h2o frees the
/// request when the response is done or the peer goes away; a slot in the request's memory pool
/// retains this object until then and its dispose callback marks it gone, so a late `respond` on a
/// request whose peer left is a no-op rather than a write to freed memory. Loop thread only.
public final class HTTPRequest: @unchecked Sendable {
    private let loop: EventLoop
    private var request: UnsafeMutablePointer<h2o_req_t>?
    private var hasResponded = false
    private var stream: HTTPResponseStream?
    /// `GET`, `POST`, …
    public let method: String
    /// The path without its query, e.g. `/s/SECRET/api/apps`.
    public let path: String
    /// What follows `?` in the request target, or "".
    public let query: String
    /// The headers, names lowercased, with `host` (h2o's authority); a repeated header keeps its values joined with ", ".
    public let headers: [String: String]
    /// The request body.
    public let body: [UInt8]

    init(loop: EventLoop, request: UnsafeMutablePointer<h2o_req_t>) {
        self.loop = loop
        self.request = request
        let target = Self.string(request.pointee.path)
        let queryAt = request.pointee.query_at
        // h2o marks "no query" with SIZE_MAX, which Swift sees as -1.
        if queryAt >= 0, queryAt < target.utf8.count {
            let bytes = Array(target.utf8)
            path = String(decoding: bytes[..<queryAt], as: UTF8.self)
            query = String(decoding: bytes[(queryAt + 1)...], as: UTF8.self)
        } else {
            path = target
            query = ""
        }
        method = Self.string(request.pointee.method)
        var headers: [String: String] = [:]
        for index in 0..<ch2o_header_count(request) {
            let name = Self.string(ch2o_header_name(request, index)).lowercased()
            let value = Self.string(ch2o_header_value(request, index))
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        // h2o takes Host out of the header list into the request's authority.
        let authority = Self.string(request.pointee.input.authority)
        if headers["host"] == nil, !authority.isEmpty { headers["host"] = authority }
        self.headers = headers
        let entity = request.pointee.entity
        body = entity.base == nil ? [] : Array(UnsafeRawBufferPointer(start: entity.base, count: entity.len))
        // The slot retains this object until h2o frees the request.
        _ = ch2o_request_slot(request, Unmanaged.passRetained(self).toOpaque()) { slot in
            let owner = Unmanaged<HTTPRequest>.fromOpaque(slot!.assumingMemoryBound(to: UnsafeMutableRawPointer.self).pointee)
            owner.takeUnretainedValue().requestFreed()
            owner.release()
        }
    }

    private static func string(_ iovec: h2o_iovec_t) -> String {
        guard let base = iovec.base, iovec.len > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: base, count: iovec.len), as: UTF8.self)
    }

    /// True once h2o freed the request (answered, or its peer went away): nothing more can be sent.
    public var isGone: Bool { request == nil }

    /// The value of header `name` (lowercase), if present.
    public func header(_ name: String) -> String? { headers[name] }

    /// Sends a whole response; a no-op when the request is gone or was already answered.
    public func respond(status: Int, reason: String, headers: [(String, String)] = [], body: [UInt8]) {
        loop.assertInLoop()
        guard let request, !hasResponded else { return }
        hasResponded = true
        ch2o_set_status(request, Int32(status), reason)
        for (name, value) in headers { Self.addHeader(request, name, value) }
        request.pointee.res.content_length = body.count
        body.withUnsafeBufferPointer { bytes in
            // h2o_send_inline copies the body into the request's pool. An empty body is passed as a
            // one-byte buffer of length 0: a null pointer would make h2o take its length from strlen.
            if bytes.isEmpty {
                h2o_send_inline(request, "", 0)
            } else {
                bytes.withMemoryRebound(to: CChar.self) { h2o_send_inline(request, $0.baseAddress, $0.count) }
            }
        }
    }

    /// Starts a streamed response (no length; h2o sends it chunked): the headers go now, the body
    /// in pieces through the returned stream. Nil when the request is gone or was already answered.
    public func startStream(status: Int = 200, reason: String = "OK", headers: [(String, String)]) -> HTTPResponseStream? {
        loop.assertInLoop()
        guard let request, !hasResponded else { return nil }
        hasResponded = true
        ch2o_set_status(request, Int32(status), reason)
        for (name, value) in headers { Self.addHeader(request, name, value) }
        let stream = HTTPResponseStream(loop: loop, request: request)
        self.stream = stream
        stream.start()
        return stream
    }

    private static func addHeader(_ request: UnsafeMutablePointer<h2o_req_t>, _ name: String, _ value: String) {
        let lowercased = name.lowercased()
        lowercased.withCString { namePointer in
            value.withCString { valuePointer in
                ch2o_add_header(request, namePointer, lowercased.utf8.count, valuePointer, value.utf8.count)
            }
        }
    }

    /// h2o is freeing the request: nothing may touch it from now on.
    private func requestFreed() {
        request = nil
        stream?.requestFreed()
        stream = nil
    }
}
