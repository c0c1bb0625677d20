import BrokerCore

/// A unary result or a stream item (the `ServerFrame.response` oneof of the .proto).
public enum Response: Sendable, Hashable {
    /// One item of a server stream.
    case streamItem(StreamItem)
    /// The session is open.
    case hello(HelloResponse)
    /// A ping's answer.
    case ping(PingResponse)
    /// The new app and its token (shown once).
    case adminAddApp(AppCredentials)
    /// Every registered app.
    case adminListApps([AppInfo])
    /// The app is gone; how many of its connections were closed.
    case adminRemoveApp(connectionsClosed: UInt32)
    /// The app with its new token (shown once).
    case adminRotateToken(AppCredentials)
    /// Broker status.
    case adminBrokerInfo(BrokerInfo)
}

/// One item of a server stream; the case matches the call's method.
public enum StreamItem: Sendable, Hashable {
    /// An item of PingStream.
    case ping(PingResponse)
}
