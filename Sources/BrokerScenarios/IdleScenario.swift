import BrokerSupport
import BrokerWire
import Foundation
import HealthBrokerClient

/// Idle connections: C app connections opened, each saying Hello, then left alone; the broker's
/// RSS before and after gives its memory per idle connection. Then every one is pinged (all must
/// still answer) and all are closed.
struct IdleScenario {
    /// Connections opened and greeted before their replies are read.
    static let wave = 200

    /// The broker's app socket.
    let socketPath: String
    /// The broker's admin socket.
    let adminSocketPath: String
    /// The daemon.
    let brokerPID: Int32
    /// Connections to open.
    let connections: Int
    /// Wait before each RSS reading, ms.
    let settleMs: Int
    /// Progress notes.
    let log: @Sendable (String) -> Void

    /// The figures.
    struct Result: Codable, Sendable {
        /// "idle".
        var scenario = "idle"
        /// Connections asked for.
        var connections: Int
        /// Connections that said Hello successfully.
        var opened: Int
        /// This process's open-file limit after raising it.
        var driverFileLimit: UInt64
        /// The broker's open-file soft limit (from /proc/PID/limits), or 0.
        var brokerFileLimit: UInt64
        /// App connections the broker counted with all open.
        var brokerAppConnections: Int
        /// Seconds to open and greet them all.
        var openSeconds: Double
        /// Broker RSS with none open, bytes.
        var brokerRSSBefore: Int
        /// Broker RSS with all open and greeted, bytes.
        var brokerRSSOpen: Int
        /// (open − before) / opened, bytes.
        var bytesPerConnection: Double
        /// Pings answered OK out of `opened`.
        var pingsAnswered: Int
        /// Broker RSS after every connection answered a ping, bytes.
        var brokerRSSAfterPing: Int
        /// (afterPing − before) / opened, bytes.
        var bytesPerConnectionAfterPing: Double
        /// Broker RSS after closing them all, bytes.
        var brokerRSSClosed: Int
    }

    /// Opens, measures, pings and closes.
    func run() async throws -> Result {
        let limit = FileDescriptorLimit.raiseToHardLimit()
        guard limit >= UInt64(connections + 64) else {
            throw ScenarioFailure("the open-file limit is \(limit); \(connections) connections need more (raise the hard limit)")
        }
        let admin = try await BrokerAdmin.connect(socketPath: adminSocketPath)
        defer { admin.close() }
        let token = try await ScenarioApps(socketPath: socketPath, admin: admin).prepare("scenarios.idle", grant: .none)
        let hello = Proto.Call.Request.hello(HelloRequest(appID: "scenarios.idle", appToken: token, protocolVersion: BrokerVersion.protocolVersion).proto)

        settle()
        let before = ProcessMemory.read(pid: brokerPID)?.rss ?? 0
        let began = ContinuousClock.now
        var open: [RawConnection] = []
        open.reserveCapacity(connections)
        do {
            while open.count < connections {
                var wave: [RawConnection] = []
                for _ in 0..<min(Self.wave, connections - open.count) {
                    let connection = try RawConnection(path: socketPath)
                    try connection.send(hello, callID: 1)
                    wave.append(connection)
                }
                for index in wave.indices {
                    let frame = try wave[index].receive()
                    if let error = frame.status?.error { throw ScenarioFailure("Hello refused on connection \(open.count + index + 1): \(error.message)") }
                    guard case .hello = frame.response else { throw ScenarioFailure("Hello: unexpected reply") }
                }
                open += wave
            }
        } catch {
            open.forEach { $0.close() }
            throw error
        }
        let openSeconds = (ContinuousClock.now - began).seconds
        log("idle: \(open.count) connections open and greeted in \(String(format: "%.2f", openSeconds)) s")
        settle()
        let openRSS = ProcessMemory.read(pid: brokerPID)?.rss ?? 0
        let counted = Int((try? await admin.brokerInfo())?.appConnections ?? 0)

        var answered = 0
        for index in open.indices {
            try? open[index].send(.ping(PingRequest().proto), callID: 2)
        }
        for index in open.indices {
            if let frame = try? open[index].receive(), frame.callID == 2, frame.status?.error == nil, case .ping = frame.response {
                answered += 1
            }
        }
        settle()
        let pingedRSS = ProcessMemory.read(pid: brokerPID)?.rss ?? 0
        log("idle: \(answered) of \(open.count) answered a ping")

        open.forEach { $0.close() }
        let opened = open.count
        open.removeAll()
        settle()
        let closedRSS = ProcessMemory.read(pid: brokerPID)?.rss ?? 0
        return Result(
            connections: connections, opened: opened, driverFileLimit: limit, brokerFileLimit: Self.openFileLimit(pid: brokerPID),
            brokerAppConnections: counted, openSeconds: openSeconds, brokerRSSBefore: before, brokerRSSOpen: openRSS,
            bytesPerConnection: Double(openRSS - before) / Double(max(opened, 1)), pingsAnswered: answered,
            brokerRSSAfterPing: pingedRSS, bytesPerConnectionAfterPing: Double(pingedRSS - before) / Double(max(opened, 1)),
            brokerRSSClosed: closedRSS)
    }

    private func settle() {
        usleep(UInt32(max(settleMs, 0)) * 1_000)
    }

    /// The soft "Max open files" of a process, from /proc/PID/limits, or 0.
    static func openFileLimit(pid: Int32) -> UInt64 {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("Max open files") {
            let fields = line.dropFirst("Max open files".count).split(separator: " ", omittingEmptySubsequences: true)
            return fields.first.flatMap { UInt64($0) } ?? 0
        }
        return 0
    }
}
