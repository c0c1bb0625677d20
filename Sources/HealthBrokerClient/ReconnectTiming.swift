/// How the reconnect loop draws jitter and waits; tests inject one that records the waits.
package struct ReconnectTiming: Sendable {
    /// A jitter sample in -1…1 for each wait.
    package var jitterSample: @Sendable () -> Double
    /// Waits for `delay` (returning early only if the task is cancelled).
    package var sleep: @Sendable (Duration) async -> Void

    /// Creates a timing from its two parts.
    package init(jitterSample: @escaping @Sendable () -> Double, sleep: @escaping @Sendable (Duration) async -> Void) {
        self.jitterSample = jitterSample
        self.sleep = sleep
    }

    /// Uniform random jitter and real sleeping.
    package static let live = ReconnectTiming(
        jitterSample: { Double.random(in: -1...1) },
        sleep: { delay in try? await Task.sleep(for: delay) })
}
