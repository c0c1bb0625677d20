/// An app together with a freshly issued token; the broker shows the token this once.
public struct AppCredentials: Sendable, Hashable {
    /// The app.
    public var app: AppInfo
    /// The token, to hand to the app.
    public var token: String

    /// Creates credentials.
    public init(app: AppInfo, token: String) {
        self.app = app
        self.token = token
    }
}
