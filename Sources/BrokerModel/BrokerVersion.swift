/// Versions the broker and its clients agree on.
public enum BrokerVersion {
    /// The broker's release version.
    public static let broker = "0.1.0"
    /// The wire protocol version carried in Hello.
    public static let protocolVersion: UInt32 = 1
}
