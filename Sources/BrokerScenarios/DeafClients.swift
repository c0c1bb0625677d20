#if canImport(Glibc)
import Glibc
#endif
import BrokerWire
import Foundation

/// App connections that never read a reply: each writes its byte stream (`DeafTraffic`) until the
/// socket takes no more, then sits there. One thread drives them all with non-blocking sends.
final class DeafClients {
    /// How long every socket must have refused more before the pour counts as done.
    static let quietMicros: UInt32 = 300_000
    /// How long a socket's Hello reply may take to read at the end.
    static let helloReadSeconds = 2

    /// Where one connection stands.
    private struct Client {
        var connection: RawConnection
        var stream: Int
        var written = 0
        var failed = false
    }

    private var clients: [Client] = []
    private let streams: [[UInt8]]

    /// How the pour went.
    struct Pour: Codable, Sendable {
        /// Seconds from the first byte until every socket refused more (or the time ran out).
        var seconds: Double
        /// Bytes each connection got written: the least, the median, the most.
        var bytesMin: Int
        /// The median.
        var bytesMedian: Int
        /// The most.
        var bytesMax: Int
        /// Connections whose whole stream went out: the broker never stopped reading them (0 expected).
        var wroteAll: Int
        /// Connections a send failed on (the broker closed them).
        var failed: Int
        /// True when the time ran out before every socket refused more.
        var timedOut: Bool
    }

    /// Connects `count` clients to `socketPath`, dealing them `streams` in turn. Nothing is sent yet.
    init(socketPath: String, count: Int, streams: [[UInt8]]) throws(ScenarioFailure) {
        self.streams = streams
        clients.reserveCapacity(count)
        do throws(ScenarioFailure) {
            for index in 0..<count {
                clients.append(Client(connection: try RawConnection(path: socketPath), stream: index % streams.count))
            }
        } catch {
            close()
            throw error
        }
    }

    /// Sends what each socket takes, round after round, until all refused more for `quietMicros`
    /// on end (or wrote everything, or failed), or `maxSeconds` passed.
    func pour(maxSeconds: Double) -> Pour {
        let began = ContinuousClock.now
        var quietSince: ContinuousClock.Instant?
        var timedOut = false
        while true {
            var progress = 0
            for index in clients.indices { progress += send(index) }
            let now = ContinuousClock.now
            if (now - began).seconds > maxSeconds {
                timedOut = true
                break
            }
            if progress > 0 {
                quietSince = nil
                continue
            }
            let since = quietSince ?? now
            quietSince = since
            if (now - since).seconds * 1e6 >= Double(Self.quietMicros) { break }
            // Nothing went out this round: give the broker a moment before asking again.
            usleep(10_000)
        }
        let written = clients.map(\.written).sorted()
        return Pour(
            seconds: (ContinuousClock.now - began).seconds, bytesMin: written.first ?? 0, bytesMedian: written.isEmpty ? 0 : written[written.count / 2],
            bytesMax: written.last ?? 0, wroteAll: clients.filter { $0.written == streams[$0.stream].count }.count,
            failed: clients.filter(\.failed).count, timedOut: timedOut)
    }

    /// Writes as much of client `index`'s stream as its socket takes now; returns the bytes written.
    private func send(_ index: Int) -> Int {
        guard !clients[index].failed else { return 0 }
        let fd = clients[index].connection.fd
        let start = clients[index].written
        var offset = start
        let failed: Bool = streams[clients[index].stream].withUnsafeBytes { bytes in
            while offset < bytes.count {
                let sent = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                if sent > 0 { offset += sent; continue }
                if sent < 0 && errno == EINTR { continue }
                return !(sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            }
            return false
        }
        clients[index].written = offset
        clients[index].failed = failed
        return offset - start
    }

    /// Reads each connection's first reply (its Hello's, queued before anything else) and returns
    /// how many were OK; a refused connection's first frame is an error status instead.
    func helloAccepted() -> Int {
        var accepted = 0
        for index in clients.indices {
            var timeout = timeval(tv_sec: Self.helloReadSeconds, tv_usec: 0)
            _ = setsockopt(clients[index].connection.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard let frame = try? clients[index].connection.receive() else { continue }
            if frame.callID == 1, frame.status?.error == nil, case .hello = frame.response { accepted += 1 }
        }
        return accepted
    }

    /// Closes every connection.
    func close() {
        clients.forEach { $0.connection.close() }
        clients.removeAll()
    }
}
