/// A pending authorization prompt: which app asks, why, and the types still undecided.
public struct Prompt: Sendable, Hashable {
    /// Identifies the prompt among the broker's prompts.
    public var id: UInt64
    /// The asking app.
    public var appID: String
    /// Its display name.
    public var appName: String
    /// Why it reads.
    public var readUsage: String
    /// Why it writes.
    public var shareUsage: String
    /// Types to decide sharing for.
    public var shareTypes: [ObjectType]
    /// Types to decide reading for.
    public var readTypes: [ObjectType]
    /// When the prompt was raised.
    package var createdMicros: Int64
    /// When the waiting call passes its deadline (µs since the epoch); 0 when the app set none.
    package var deadlineMicros: Int64

    /// Creates a prompt.
    package init(id: UInt64, appID: String, appName: String, readUsage: String, shareUsage: String, shareTypes: [ObjectType], readTypes: [ObjectType], createdMicros: Int64, deadlineMicros: Int64 = 0) {
        self.id = id
        self.appID = appID
        self.appName = appName
        self.readUsage = readUsage
        self.shareUsage = shareUsage
        self.shareTypes = shareTypes
        self.readTypes = readTypes
        self.createdMicros = createdMicros
        self.deadlineMicros = deadlineMicros
    }
}

/// How a prompt ended.
public enum PromptResolution: Int32, Sendable, Hashable, CaseIterable {
    /// Someone answered it.
    case answered = 1
    /// The person cancelled it; the app gets user canceled.
    case cancelled = 2
    /// The waiting call ended first (deadline, cancel, disconnect, app removed).
    case withdrawn = 3
}

/// One item of a consent agent's prompt stream.
public enum PromptEvent: Sendable, Hashable {
    /// A prompt is waiting for an answer.
    case raised(Prompt)
    /// A prompt ended; agents should stop showing it.
    case resolved(promptID: UInt64, resolution: PromptResolution)
}
