import Foundation

/// CPU time a process has run, summed over its threads from `/proc/PID/task/*/schedstat`.
///
/// The scheduler's own count, in nanoseconds: fine enough to split a few thousand calls of tens of
/// µs each, where `/proc/PID/stat` counts in 10 ms ticks. It leaves out what a wall-clock time of
/// a call adds on a shared machine: waiting to be scheduled.
enum ProcessCPU {
    /// Nanoseconds on a CPU so far, over every thread of `pid` still alive, or nil when unreadable.
    static func nanoseconds(pid: Int32) -> UInt64? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        var total: UInt64 = 0
        for thread in threads {
            // "run_ns wait_ns timeslices": the first field.
            guard let text = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
                  let field = text.split(separator: " ").first, let ns = UInt64(field) else { continue }
            total += ns
        }
        return total
    }
}
