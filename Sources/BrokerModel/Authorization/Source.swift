/// An app the person should see in the Health app's Sources: one that asked for authorization at
/// least once (even if denied), or one whose samples are stored (an import under an app id that
/// never asked, say).
public struct Source: Sendable, Hashable {
    /// The app id.
    public var appID: String
    /// Its display name when it last asked; for an app that never asked, its registered name, else its id.
    public var appName: String
    /// Its first request (0 when it never asked).
    package var firstRequestMicros: Int64
    /// Its latest request (0 when it never asked).
    package var lastRequestMicros: Int64
    /// False once the app was removed from the registry (or when it never was in it).
    public var isRegistered: Bool
    /// How many samples are stored with this app as their source right now.
    public var sampleCount: UInt64
    /// True when the app asked for authorization at least once; false for an app that only wrote data.
    public var everAsked: Bool
    /// How many samples of each type are stored with this app as their source (types with none are absent).
    public var sampleCounts: [ObjectType: UInt64]

    /// Creates a source.
    package init(
        appID: String, appName: String, firstRequestMicros: Int64, lastRequestMicros: Int64, isRegistered: Bool,
        sampleCount: UInt64 = 0, everAsked: Bool = true, sampleCounts: [ObjectType: UInt64] = [:]
    ) {
        self.appID = appID
        self.appName = appName
        self.firstRequestMicros = firstRequestMicros
        self.lastRequestMicros = lastRequestMicros
        self.isRegistered = isRegistered
        self.sampleCount = sampleCount
        self.everAsked = everAsked
        self.sampleCounts = sampleCounts
    }
}
