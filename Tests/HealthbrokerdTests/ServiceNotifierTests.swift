import BrokerModel
import BrokerSupport
import Foundation
@testable import healthbrokerd
import Testing

/// sd_notify(3) datagrams reach a path socket and an abstract one, one `KEY=value` per line.
@Suite struct ServiceNotifierTests {
    /// A bound datagram socket standing in for systemd's notification socket.
    final class Listener {
        let fd: Int32
        let name: String

        init(name: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            self.name = name
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(name.utf8)
            if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count + (bytes.first == 0 ? 0 : 1))
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard bound == 0 else { throw DaemonTestError("bind \(name): \(String(cString: strerror(errno)))") }
        }

        deinit {
            close(fd)
            if name.hasPrefix("/") { unlink(name) }
        }

        /// The next datagram, or nil after two seconds.
        func receive() -> String? {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 2_000) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4_096)
            let count = recv(fd, &buffer, buffer.count, 0)
            return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
        }
    }

    struct DaemonTestError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func noSocketNoNotifier() throws {
        #expect(try ServiceNotifier(socket: nil) == nil)
        #expect(try ServiceNotifier(socket: "") == nil)
    }

    @Test func aRelativeOrOverlongNameIsRefused() {
        #expect(throws: BrokerError.self) { try ServiceNotifier(socket: "run/notify") }
        #expect(throws: BrokerError.self) { try ServiceNotifier(socket: "/" + String(repeating: "x", count: 200)) }
    }

    @Test func readyReachesAPathSocket() throws {
        let listener = try Listener(name: "/tmp/hb-notify-\(UInt32.random(in: 0...UInt32.max)).sock")
        let notifier = try #require(try ServiceNotifier(socket: listener.name))
        try notifier.send(ServiceNotifier.ready(pid: 77, status: "serving\nnow"))
        #expect(listener.receive() == "READY=1\nMAINPID=77\nSTATUS=serving now")
    }

    @Test func stoppingReachesAnAbstractSocket() throws {
        let listener = try Listener(name: "@hb-notify-\(UInt32.random(in: 0...UInt32.max))")
        let notifier = try #require(try ServiceNotifier(socket: listener.name))
        try notifier.send(ServiceNotifier.stopping(status: "stopping"))
        #expect(listener.receive() == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func reloadingCarriesTheMonotonicTime() throws {
        let message = ServiceNotifier.reloading(status: "reloading")
        let lines = message.split(separator: "\n")
        #expect(lines.first == "RELOADING=1")
        #expect(lines.contains { $0.hasPrefix("MONOTONIC_USEC=") && UInt64($0.dropFirst("MONOTONIC_USEC=".count)) ?? 0 > 0 })
    }

    @Test func sendingToAMissingSocketIsUnavailable() throws {
        let notifier = try #require(try ServiceNotifier(socket: "/tmp/hb-notify-missing-\(UInt32.random(in: 0...UInt32.max)).sock"))
        let error = #expect(throws: BrokerError.self) { try notifier.send("READY=1") }
        #expect(error?.code == .unavailable)
    }
}
