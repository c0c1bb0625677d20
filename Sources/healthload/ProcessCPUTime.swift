#if canImport(Glibc)
import Glibc
#endif

/// A process's CPU time so far, read from `/proc/<pid>/stat` (user and system, all its threads).
struct ProcessCPUTime: Sendable, Equatable {
    /// User-mode clock ticks (`utime`, field 14).
    var userTicks: UInt64
    /// Kernel-mode clock ticks (`stime`, field 15).
    var systemTicks: UInt64
    /// Ticks per second (`sysconf(_SC_CLK_TCK)`, usually 100).
    var ticksPerSecond: UInt64

    /// User plus system time in seconds.
    var seconds: Double { Double(userTicks + systemTicks) / Double(max(ticksPerSecond, 1)) }

    /// Parses the text of `/proc/<pid>/stat`. The command name (field 2) sits in parentheses and may
    /// hold spaces and parentheses itself, so fields are counted from the last `)`.
    static func parse(statLine: String, ticksPerSecond: UInt64) -> ProcessCPUTime? {
        guard let close = statLine.lastIndex(of: ")") else { return nil }
        let fields = statLine[statLine.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\n" })
        // fields[0] is field 3 (state), so field n is fields[n - 3].
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        return ProcessCPUTime(userTicks: user, systemTicks: system, ticksPerSecond: ticksPerSecond)
    }

    /// Reads process `pid`'s CPU time, or nil when `/proc` will not say (no such process, no /proc).
    static func read(pid: Int32) -> ProcessCPUTime? {
        guard pid > 0, let text = readSmallFile("/proc/\(pid)/stat") else { return nil }
        return parse(statLine: text, ticksPerSecond: UInt64(max(sysconf(Int32(_SC_CLK_TCK)), 1)))
    }

    /// The first few KiB of a small file such as a /proc entry, or nil.
    static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var length = 0
        while length < buffer.count {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + length, $0.count - length) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            length += count
        }
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length], as: UTF8.self)
    }
}
