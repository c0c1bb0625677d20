import BrokerTransport
import BrokerWire

/// One call in flight: its id, deadline timer and, for streams, the credit the client granted.
///
/// Loop thread only. A call is live while its session's table maps its id to this very object;
/// results that arrive after it ended (deadline, cancel, disconnect) find it gone and are dropped.
final class CallContext {
    let callID: UInt64
    let method: String
    /// The session the call runs in, until the call ends (`Broker.endWithoutReply` drops it; every
    /// call of a closing connection ends in `didClose`). Strong rather than weak: a weakly referenced
    /// session has a side table, and then the retain and release of it that every frame makes
    /// (`connection.context`) both take the runtime's slow path, ~125 instructions a frame
    /// (benchmarks/PROFILE.md).
    var session: Session?
    var deadlineTimer: TimerToken?
    /// When the call passes its deadline (µs since the epoch, wall clock); 0 when it has none.
    var deadlineMicros: Int64 = 0
    /// Stream items the client still accepts.
    var credit: UInt32
    /// Sends more stream items while credit lasts; set by streaming methods.
    var pump: (() -> Void)?
    /// Work to undo when the call ends early (e.g. a ping's delay timer).
    var onEnd: (() -> Void)?
    /// Bytes this call holds against its connection's reading budget (`PipeConnection.hold`).
    var heldBytes = 0
    /// True while the pump waits in the connection's parked producers (so it is parked once).
    var isPumpParked = false
    /// True while the pump waits in the session's queue for a store-read slot.
    var waitsForStoreRead = false
    /// Store-read slots this call holds (`Broker.beginStoreRead`).
    var storeReadsHeld = 0

    /// What a call in flight costs besides its request bytes (this object, its table entry, its
    /// closures), charged to the connection's reading budget so that tiny calls count too.
    static let overheadBytes = 256

    init(callID: UInt64, method: String, session: Session, credit: UInt32) {
        self.callID = callID
        self.method = method
        self.session = session
        self.credit = credit
    }

    /// True while the call has not ended.
    var isLive: Bool {
        guard let session else { return false }
        return session.calls[callID] === self && !session.connection.isClosed
    }
}
