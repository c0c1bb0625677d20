import BrokerCore

/// A call's method and arguments (the `Call.request` oneof of the .proto).
public enum Request: Sendable, Hashable {
    /// Opens an app session; must be the first call on the app socket.
    case hello(HelloRequest)
    /// Liveness: answers after an optional delay.
    case ping(PingRequest)
    /// Streams ping items under flow control.
    case pingStream(PingStreamRequest)
    /// Admin: registers an app and returns its token once.
    case adminAddApp(AppRegistration)
    /// Admin: lists registered apps.
    case adminListApps
    /// Admin: removes an app and closes its connections.
    case adminRemoveApp(appID: String)
    /// Admin: replaces an app's token.
    case adminRotateToken(appID: String)
    /// Admin: broker status.
    case adminBrokerInfo
    /// A request case this build does not know (a newer client); answered UNIMPLEMENTED.
    case unknown

    /// The method's name, for logs and error messages.
    public var methodName: String {
        switch self {
        case .hello: "Hello"
        case .ping: "Ping"
        case .pingStream: "PingStream"
        case .adminAddApp: "AdminAddApp"
        case .adminListApps: "AdminListApps"
        case .adminRemoveApp: "AdminRemoveApp"
        case .adminRotateToken: "AdminRotateToken"
        case .adminBrokerInfo: "AdminBrokerInfo"
        case .unknown: "Unknown"
        }
    }

    /// True for methods served only on the admin socket.
    public var isAdmin: Bool {
        switch self {
        case .adminAddApp, .adminListApps, .adminRemoveApp, .adminRotateToken, .adminBrokerInfo: true
        case .hello, .ping, .pingStream, .unknown: false
        }
    }

    /// True for methods that answer with a stream of items.
    public var isStreaming: Bool {
        if case .pingStream = self { return true }
        return false
    }
}
