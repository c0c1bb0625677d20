import BrokerModel
import BrokerWire

/// The consumer side of one streaming call: starts it, takes items, grants credit, cancels on drop.
///
/// The call stays on the socket connection it started on (`core`), even if the `BrokerConnection`
/// reconnects meanwhile: it then ends with UNAVAILABLE like every call pending when the link went down.
///
/// Confinement: `core`, `callID` and `finished` are touched only by `next()`, which the AsyncIterator contract
/// runs for one consumer at a time (never concurrently), and by `deinit`, which runs after the last
/// use; that is what makes the `@unchecked Sendable` sound.
final class StreamCursor: @unchecked Sendable {
    private let connection: BrokerConnection
    private let request: Proto.Call.Request
    private let timeout: Duration?
    private let window: UInt32
    private var core: ConnectionCore?
    private var callID: UInt64 = 0
    private var finished = false

    /// A cursor for a call not started yet.
    init(connection: BrokerConnection, request: Proto.Call.Request, timeout: Duration?, window: UInt32) {
        self.connection = connection
        self.request = request
        self.timeout = timeout
        self.window = window
    }

    deinit {
        if let core, callID != 0, !finished { core.cancel(callID) }
    }

    /// The next item, mapped to the model; starts the call first if needed. After the end or an error: nil.
    func next() async throws(BrokerError) -> StreamItem? {
        guard let item = try await nextProto() else { return nil }
        // Mapped here, on the consumer's thread, not on the connection's loop. An item the model
        // cannot take (no case this build knows, a sample without a value) ends this call only.
        do throws(BrokerError) {
            return try StreamItem(proto: item)
        } catch {
            finished = true
            core?.cancel(callID)
            throw .malformedReply(error)
        }
    }

    /// The next item as the broker sent it (generated, not mapped); starts the call first if needed.
    /// After the end or an error: nil.
    func nextProto() async throws(BrokerError) -> Proto.StreamItem? {
        guard !finished else { return nil }
        let core: ConnectionCore
        if let started = self.core {
            core = started
        } else {
            if Task.isCancelled {
                finished = true
                throw .callCancelled
            }
            do {
                let (live, left) = try await connection.liveCore(timeout: timeout)
                callID = try await live.startStream(request, timeout: left, window: window)
                core = live
                self.core = live
            } catch {
                finished = true
                throw error
            }
        }
        switch await core.nextStreamEvent(callID) {
        case .item(let item, let grant):
            if grant > 0 { core.grant(callID, items: grant) }
            return item
        case .end:
            finished = true
            return nil
        case .failure(let error):
            finished = true
            throw error
        case .response:
            finished = true
            core.cancel(callID)
            throw .unexpectedResponse(request.method.name)
        }
    }
}
