import BrokerModel

/// Values shared by the healthctl tests.
enum Samples {
    /// One second in microseconds.
    static let second: Int64 = 1_000_000
    /// One day in microseconds.
    static let day: Int64 = 86_400 * second
    /// 2025-06-01T10:00:00Z.
    static let june1: Int64 = 1_748_772_000 * second

    /// An app with both usage texts and a pinned uid.
    static let pinnedApp = AppInfo(
        appID: "com.example.steps", name: "Steps", readUsage: "Shows your step trends.", shareUsage: "Logs walks.",
        pinnedUID: 1000, createdMicros: june1, tokenRotatedMicros: june1 + second)

    /// An app with no usage texts and no pinned uid.
    static let plainApp = AppInfo(appID: "b", name: "Bare", createdMicros: june1)

    /// The broker's status an hour and a bit after start.
    static let info = BrokerInfo(
        brokerVersion: "0.3.0", startedMicros: june1, appConnections: 2, adminConnections: 1, callsServed: 42,
        dataDirectory: "/var/lib/healthbroker", brokerTimeMicros: june1 + 3_725 * second)

    /// A prompt asking to share body mass and read steps and heart rate.
    static func prompt(id: UInt64 = 7, share: [ObjectType] = [.bodyMass], read: [ObjectType] = [.stepCount, .heartRate], deadline: Int64 = 0) -> Prompt {
        Prompt(
            id: id, appID: "com.example.steps", appName: "Steps", readUsage: "Shows your step trends.",
            shareUsage: "Logs walks.", shareTypes: share, readTypes: read, createdMicros: june1, deadlineMicros: deadline)
    }
}
