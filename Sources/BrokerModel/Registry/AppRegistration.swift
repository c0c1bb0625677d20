/// What registering an app takes: its id, display name, usage texts and an optional pinned uid.
public struct AppRegistration: Sendable, Hashable {
    /// The id the app will say in Hello.
    public var appID: String
    /// A display name.
    public var name: String
    /// Why it reads; empty: it may not ask to read.
    public var readUsage: String
    /// Why it writes; empty: it may not ask to share.
    public var shareUsage: String
    /// The only peer uid it may connect as, if set.
    public var pinnedUID: UInt32?

    /// Creates a registration.
    public init(appID: String, name: String, readUsage: String = "", shareUsage: String = "", pinnedUID: UInt32? = nil) {
        self.appID = appID
        self.name = name
        self.readUsage = readUsage
        self.shareUsage = shareUsage
        self.pinnedUID = pinnedUID
    }
}
