/// Opens an app session: who the app is and the token that proves it.
public struct HelloRequest: Sendable, Hashable {
    /// The registered app id.
    public var appID: String
    /// The token `healthctl apps add` printed.
    public var appToken: String
    /// The protocol version the client speaks.
    public var protocolVersion: UInt32

    /// Creates a Hello request.
    public init(appID: String, appToken: String, protocolVersion: UInt32) {
        self.appID = appID
        self.appToken = appToken
        self.protocolVersion = protocolVersion
    }
}
