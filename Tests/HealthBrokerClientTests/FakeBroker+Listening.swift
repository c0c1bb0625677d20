#if canImport(Glibc)
import Glibc
#endif
import BrokerWire
import Foundation

extension FakeBroker {
    /// Listens on `socketPath` again (after `stopListening`, a restarted broker on the same path).
    func startListening() throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FakeBrokerError("socket failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw FakeBrokerError("bind or listen on \(socketPath) failed: errno \(errno)")
        }
        state.withLock { $0.listenFD = fd }
        // The thread holds the fake weakly while it waits, so dropping the fake stops it.
        let broker: @Sendable () -> FakeBroker? = { [weak self] in self }
        let thread = Thread { Self.acceptLoop(fd, broker) }
        thread.name = "FakeBroker accept"
        thread.start()
    }

    /// Stops listening and drops every connection: to its clients the broker went away.
    func goDown() {
        stopListening()
        closeConnections()
    }

    /// Stops listening and removes the socket file (connecting then fails); open connections stay.
    func stopListening() {
        let fd = state.withLock { state in
            defer { state.listenFD = -1 }
            return state.listenFD
        }
        guard fd >= 0 else { return }
        shutdown(fd, Int32(SHUT_RDWR))  // wakes accept(2); the accept thread closes the descriptor
        unlink(socketPath)
    }

    private static func acceptLoop(_ listenFD: Int32, _ broker: @escaping @Sendable () -> FakeBroker?) {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0, errno == EINTR { continue }
            guard fd >= 0, let broker = broker() else {
                if fd >= 0 { close(fd) }
                break
            }
            broker.adopt(fd)
        }
        close(listenFD)
    }

    private func adopt(_ fd: Int32) {
        let connection = FakeConnection(fd: fd)
        state.withLock {
            $0.open.append(connection)
            $0.accepted += 1
        }
        let broker: @Sendable () -> FakeBroker? = { [weak self] in self }
        let thread = Thread {
            connection.readFrames { frame in broker()?.respond(to: frame) }
            broker()?.state.withLock { state in
                state.open.removeAll { $0 === connection }
                state.ended += 1
            }
            connection.close()
        }
        thread.name = "FakeBroker connection"
        thread.start()
    }

    /// Records `frame` and returns the replies to send and whether to close the connection after them.
    private func respond(to frame: ClientFrame) -> (replies: [ServerFrame], hangUp: Bool) {
        let (helloError, helloResponse) = state.withLock { state in
            state.received.append(frame)
            return (state.helloError, state.helloResponse)
        }
        guard case .call(let call) = frame else { return (control(frame), false) }
        guard case .hello = call.request else { return (answer(call), false) }
        if let helloError { return ([ServerFrame(callID: call.callID, status: Status(helloError))], true) }
        return ([ServerFrame(callID: call.callID, response: .hello(helloResponse))], false)
    }
}
