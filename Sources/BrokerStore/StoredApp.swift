public import BrokerModel

/// A registered app as stored: its public info and the hash of its current token.
public struct StoredApp: Sendable, Hashable {
    /// The app's public info.
    public var info: AppInfo
    /// The BLAKE2b-256 hash of its current token.
    public var tokenHash: [UInt8]

    /// Creates a stored app.
    public init(info: AppInfo, tokenHash: [UInt8]) {
        self.info = info
        self.tokenHash = tokenHash
    }
}
