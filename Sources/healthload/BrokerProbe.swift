#if canImport(Glibc)
import Glibc
#endif
import HealthBrokerClient

/// The broker's and the driver's counters at one instant: CPU times from /proc and the broker's
/// reply-frame and write-call counts from AdminBrokerInfo.
struct BrokerProbe: Sendable {
    /// When the sample was taken (monotonic nanoseconds).
    var time: UInt64
    /// The daemon's CPU time, when /proc could be read.
    var brokerCPU: ProcessCPUTime?
    /// The broker's counters, when the admin call worked.
    var info: BrokerInfo?
    /// This process's CPU time.
    var clientCPU: ProcessCPUTime?

    /// Samples everything now.
    static func take(pid: Int32?, admin: BrokerAdmin?) async -> BrokerProbe {
        let info: BrokerInfo? = if let admin { try? await admin.brokerInfo() } else { nil }
        return BrokerProbe(
            time: MonotonicClock.now(),
            brokerCPU: pid.flatMap { ProcessCPUTime.read(pid: $0) },
            info: info,
            clientCPU: ProcessCPUTime.read(pid: getpid()))
    }
}
