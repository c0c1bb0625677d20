/// An app that asked for authorization at least once, as in the Health app's Sources.
public struct Source: Sendable, Hashable {
    /// The app id.
    public var appID: String
    /// Its display name when it last asked.
    public var appName: String
    /// Its first request.
    package var firstRequestMicros: Int64
    /// Its latest request.
    package var lastRequestMicros: Int64
    /// False once the app was removed from the registry.
    public var isRegistered: Bool

    /// Creates a source.
    package init(appID: String, appName: String, firstRequestMicros: Int64, lastRequestMicros: Int64, isRegistered: Bool) {
        self.appID = appID
        self.appName = appName
        self.firstRequestMicros = firstRequestMicros
        self.lastRequestMicros = lastRequestMicros
        self.isRegistered = isRegistered
    }
}
