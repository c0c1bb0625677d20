#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Resident memory and CPU time of a process, read from `/proc/PID/status` and `/proc/PID/stat`.
enum ProcessMemory {
    /// Resident set figures of one process, in bytes.
    struct Reading: Sendable, Codable {
        /// `VmRSS`: resident now.
        var rss: Int
        /// `VmHWM`: the peak resident size since the process started or since `resetPeak`.
        var hwm: Int
    }

    /// The process's `VmRSS` and `VmHWM`, or nil when `/proc/PID/status` cannot be read.
    static func read(pid: Int32) -> Reading? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        var rss: Int?
        var hwm: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { rss = kibibytes(line) }
            if line.hasPrefix("VmHWM:") { hwm = kibibytes(line) }
        }
        guard let rss, let hwm else { return nil }
        return Reading(rss: rss * 1024, hwm: hwm * 1024)
    }

    /// The process's resident size in bytes from `/proc/PID/statm` (cheap enough to poll), or nil.
    static func residentBytes(pid: Int32) -> Int? {
        let fd = Glibc.open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &buffer) { raw -> Int? in
            let count = Glibc.read(fd, raw.baseAddress, raw.count)
            guard count > 0 else { return nil }
            // "size resident shared …" in pages: the second number.
            var field = 0
            var value = 0
            for byte in raw.prefix(count) {
                if byte == UInt8(ascii: " ") {
                    if field == 1 { break }
                    field += 1
                    value = 0
                } else if field == 1, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
            }
            return field == 1 ? value * Int(sysconf(Int32(_SC_PAGESIZE))) : nil
        }
    }

    /// Resets the process's `VmHWM` to its current RSS (writes 5 to `/proc/PID/clear_refs`); false when not allowed.
    @discardableResult
    static func resetPeak(pid: Int32) -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/\(pid)/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// User plus system CPU time the process has used, in µs (from `/proc/PID/stat`), or nil.
    static func cpuMicros(pid: Int32) -> Int64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After "pid (comm) " the fields start at field 3 (state); utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
        let ticks = Int64(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) * 1_000_000 / max(ticks, 1)
    }

    /// The number of kB in a `/proc/PID/status` line such as `VmRSS:     1234 kB`.
    private static func kibibytes(_ line: Substring) -> Int? {
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    }
}

/// Polls the resident size of some processes (`/proc/PID/statm`) on a background thread and keeps each one's peak.
///
/// `/proc` polling misses peaks shorter than the interval; `VmHWM` (reset before a measurement with
/// `ProcessMemory.resetPeak`) catches them, so the reported peak is the larger of the two.
final class MemorySampler: @unchecked Sendable {
    /// The processes watched.
    let pids: [Int32]
    /// How long the thread sleeps between polls.
    let intervalMicros: UInt32
    private let lock = NSLock()
    private var peaks: [Int32: Int] = [:]
    private var samples = 0
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    /// Starts polling `pids` every `intervalMicros`.
    init(pids: [Int32], intervalMicros: UInt32 = 5_000) {
        self.pids = pids
        self.intervalMicros = intervalMicros
        let thread = Thread { [self] in self.poll() }
        thread.name = "memory-sampler"
        thread.start()
    }

    /// Stops polling; returns each process's largest `VmRSS` seen, and how many polls were made.
    func stop() -> (peaks: [Int32: Int], polls: Int) {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { (peaks, samples) }
    }

    private func poll() {
        while lock.withLock({ running }) {
            for pid in pids {
                guard let resident = ProcessMemory.residentBytes(pid: pid) else { continue }
                lock.withLock { peaks[pid] = max(peaks[pid] ?? 0, resident) }
            }
            lock.withLock { samples += 1 }
            usleep(intervalMicros)
        }
        done.signal()
    }
}
