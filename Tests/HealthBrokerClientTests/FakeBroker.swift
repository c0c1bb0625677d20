#if canImport(Glibc)
import Glibc
#endif
import BrokerWire
import Foundation
import HealthBrokerClient

/// A scripted broker on a temporary Unix socket: answers Hello itself and every other call with the
/// frames `answer` returns, and records what the client sent. Serves one connection at a time.
final class FakeBroker: @unchecked Sendable {
    /// Where the fake listens.
    let socketPath: String
    /// Every call received (Hello included), in order.
    let calls = Shared<[Call]>([])
    /// Every cancel and credit frame received, in order.
    let controlFrames = Shared<[ClientFrame]>([])

    private let directory: String
    private let listenFD: Int32
    private let answer: @Sendable (Call) -> [ServerFrame]
    private let control: @Sendable (ClientFrame) -> [ServerFrame]

    /// Starts listening; `answer` maps each non-Hello call to the frames sent back (none: the call
    /// stays open), and `control` each cancel or credit frame (streams that honour credit use it).
    init(answer: @escaping @Sendable (Call) -> [ServerFrame], control: @escaping @Sendable (ClientFrame) -> [ServerFrame] = { _ in [] }) throws {
        var template = Array("/tmp/hbc-fake-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FakeBrokerError("mkdtemp failed") }
        directory = String(cString: made)
        socketPath = directory + "/broker.sock"
        self.answer = answer
        self.control = control
        listenFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listenFD >= 0 else { throw FakeBrokerError("socket failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listenFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listenFD, 4) == 0 else {
            close(listenFD)
            throw FakeBrokerError("bind or listen failed")
        }
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Stops listening and removes the socket; open connections end when the client closes them.
    func stop() {
        shutdown(listenFD, Int32(SHUT_RDWR))
        unlink(socketPath)
        rmdir(directory)
    }

    /// The requests of the calls received after Hello.
    var requests: [Request] {
        calls.current.map(\.request).filter { if case .hello = $0 { false } else { true } }
    }

    /// The last call received that is not Hello.
    var lastCall: Call? {
        calls.current.last { if case .hello = $0.request { false } else { true } }
    }

    private func serve() {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                break
            }
            serveConnection(fd)
            close(fd)
        }
        close(listenFD)
    }

    private func serveConnection(_ fd: Int32) {
        var decoder = FrameDecoder(maxFrameBytes: 4 << 20)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            do {
                while let payload = try decoder.nextFrame() {
                    let frame = try WireCodec.decodeClientFrame(payload)
                    let replies: [ServerFrame]
                    if case .call(let call) = frame {
                        calls.withLock { $0.append(call) }
                        replies = self.replies(to: call)
                    } else {
                        controlFrames.withLock { $0.append(frame) }
                        replies = control(frame)
                    }
                    var out: [UInt8] = []
                    for reply in replies { WireCodec.append(reply, to: &out) }
                    if !out.isEmpty, !writeAll(fd, out) { return }
                }
            } catch {
                return
            }
        }
    }

    private func replies(to call: Call) -> [ServerFrame] {
        guard case .hello = call.request else { return answer(call) }
        let hello = HelloResponse(
            brokerVersion: "fake", protocolVersion: 1, maxFrameBytes: 4 << 20,
            brokerTimeMicros: 1_700_000_000_000_000, maxCallsInFlight: 64)
        return [ServerFrame(callID: call.callID, response: .hello(hello))]
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return true
        }
    }
}

/// The fake broker could not start.
struct FakeBrokerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension FakeBroker {
    /// A fake that answers every call with the single response `respond` gives for its request.
    convenience init(respond: @escaping @Sendable (Request) -> Response?) throws {
        try self.init { call in
            guard let response = respond(call.request) else { return [] }
            return [ServerFrame(callID: call.callID, response: response)]
        }
    }

    /// A fake that ends every call with `error`.
    convenience init(failing error: BrokerError) throws {
        try self.init { call in [ServerFrame(callID: call.callID, status: Status(error))] }
    }

    /// A connected app session as "com.example.app".
    func connectApp() async throws -> HealthStore {
        try await HealthStore.connect(socketPath: socketPath, appID: "com.example.app", appToken: "token")
    }

    /// A connected admin session.
    func connectAdmin() async throws -> BrokerAdmin {
        try await BrokerAdmin.connect(socketPath: socketPath)
    }
}
