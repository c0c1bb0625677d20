/// A registered app as the admin sees it (never its token).
public struct AppInfo: Sendable, Hashable {
    /// The app id apps say in Hello.
    public var appID: String
    /// A display name for prompts and tables.
    public var name: String
    /// Why the app reads health data; empty means it may not ask to read.
    public var readUsage: String
    /// Why the app writes health data; empty means it may not ask to share.
    public var shareUsage: String
    /// The peer uid the app must connect as, if pinned.
    public var pinnedUID: UInt32?
    /// When the app was registered.
    package var createdMicros: Int64
    /// When its token was last issued.
    package var tokenRotatedMicros: Int64

    /// Creates app info.
    package init(appID: String, name: String, readUsage: String = "", shareUsage: String = "", pinnedUID: UInt32? = nil, createdMicros: Int64 = 0, tokenRotatedMicros: Int64 = 0) {
        self.appID = appID
        self.name = name
        self.readUsage = readUsage
        self.shareUsage = shareUsage
        self.pinnedUID = pinnedUID
        self.createdMicros = createdMicros
        self.tokenRotatedMicros = tokenRotatedMicros
    }
}
