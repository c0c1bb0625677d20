import BrokerPolicy
import BrokerTransport

/// What the broker knows about one connection: which socket, which app, and its calls in flight.
///
/// Loop thread only.
final class Session {
    /// Which socket the connection came in on.
    enum Kind {
        /// The app socket: Hello first, app methods.
        case app
        /// The admin socket: admin methods, peer uid checked.
        case admin
    }

    let kind: Kind
    /// The connection: a `PipeConnection` in the daemon, an in-process one in tests.
    let connection: any FrameConnection
    /// The app this connection proved to be, once Hello succeeded.
    var appID: String? {
        didSet { cachedGrants = nil }
    }
    /// The app's grants as of `cachedGrantsGeneration` (see `Broker.appGrants(_:)`).
    ///
    /// Read for every authorized call, so without the run-time exclusivity check (~75 instructions
    /// an access, benchmarks/PROFILE.md item 9); loop thread only, each access one statement.
    @exclusivity(unchecked) var cachedGrants: AppGrants?
    /// The `Broker.grantsGeneration` at which `cachedGrants` was taken; read beside it, for the same
    /// reason.
    @exclusivity(unchecked) var cachedGrantsGeneration: UInt64 = 0
    /// Calls in flight, by the client's call id.
    ///
    /// Looked up for every call; loop-thread only and never accessed overlapping, so without the
    /// run-time exclusivity check (~75 instructions an access, benchmarks/PROFILE.md item 9).
    @exclusivity(unchecked) var calls: [UInt64: CallContext] = [:]
    /// Store reads started for this connection's streams whose results are not yet queued.
    var storeReadsInFlight = 0
    /// Streams waiting for a store-read slot, in order.
    var storeReadWaiters: [CallContext] = []

    init(kind: Kind, connection: any FrameConnection) {
        self.kind = kind
        self.connection = connection
    }

    /// A short label for logs.
    var label: String {
        let peer = connection.peer.map { " \($0)" } ?? ""
        switch kind {
        case .app: return "app#\(connection.id)\(peer)"
        case .admin: return "admin#\(connection.id)\(peer)"
        }
    }
}
