import Foundation
import HealthBrokerClient

/// The documented bound on what one app connection can make the broker hold, whatever its peer
/// does (docs/RELIABILITY.md, "The memory bound per connection"): 2H + 3F + 64 KiB + two store pages,
/// with H = `--output-high-water` and F = `--max-frame-bytes` as the running daemon was given them.
struct ConnectionBound: Codable, Sendable {
    /// The daemon's defaults, used for a flag its command line does not give.
    static let defaultHighWater = 1 << 20
    /// `--max-frame-bytes`' default.
    static let defaultMaxFrame = 4 << 20
    /// The decoder's read: the rest of one read sits beside a partial frame.
    static let readBytes = 64 << 10
    /// The largest query page, in samples.
    static let pageSamples = 4_096
    /// Heap bytes of one read sample besides its `Sample` value: its 36-character uuid string (the
    /// app id and unit fit in small strings, empty metadata is a shared singleton).
    static let uuidStringBytes = 80

    /// H, bytes.
    var highWater: Int
    /// F, bytes.
    var maxFrame: Int
    /// One query page of 4,096 samples as the broker holds it (`[Sample]`), estimated, bytes.
    var pageBytes: Int
    /// "cmdline" when read from the daemon's /proc/PID/cmdline, "defaults" when that could not be read.
    var source: String

    /// 2H + 3F + 64 KiB + two pages, bytes.
    var bytes: Int { 2 * highWater + 3 * maxFrame + Self.readBytes + 2 * pageBytes }

    /// The bound for the daemon `pid`, its H and F taken from its command line (the defaults for a flag it lacks).
    static func of(pid: Int32) -> ConnectionBound {
        let pageBytes = pageSamples * (MemoryLayout<Sample>.stride + uuidStringBytes)
        guard let arguments = commandLine(pid: pid) else {
            return ConnectionBound(highWater: defaultHighWater, maxFrame: defaultMaxFrame, pageBytes: pageBytes, source: "defaults")
        }
        return ConnectionBound(
            highWater: value(of: "output-high-water", in: arguments) ?? defaultHighWater,
            maxFrame: value(of: "max-frame-bytes", in: arguments) ?? defaultMaxFrame,
            pageBytes: pageBytes, source: "cmdline")
    }

    /// The NUL-separated arguments in /proc/PID/cmdline, or nil.
    static func commandLine(pid: Int32) -> [String]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        return data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The integer given to `--name` as `--name V` or `--name=V` (the last one wins, as in the daemon's parser).
    static func value(of name: String, in arguments: [String]) -> Int? {
        var found: Int?
        for (index, argument) in arguments.enumerated() {
            if argument == "--" + name, index + 1 < arguments.count {
                found = Int(arguments[index + 1]) ?? found
            } else if argument.hasPrefix("--" + name + "=") {
                found = Int(argument.dropFirst(name.count + 3)) ?? found
            }
        }
        return found
    }
}
