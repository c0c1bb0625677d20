import BrokerCore
import BrokerWire

/// The consumer side of one streaming call: starts it, takes items, grants credit, cancels on drop.
///
/// Confinement: `callID` and `finished` are touched only by `next()`, which the AsyncIterator contract
/// runs for one consumer at a time (never concurrently), and by `deinit`, which runs after the last
/// use; that is what makes the `@unchecked Sendable` sound.
final class StreamCursor: @unchecked Sendable {
    private let connection: BrokerConnection
    private let request: Request
    private let timeout: Duration?
    private let window: UInt32
    private var callID: UInt64 = 0
    private var finished = false

    /// A cursor for a call not started yet.
    init(connection: BrokerConnection, request: Request, timeout: Duration?, window: UInt32) {
        self.connection = connection
        self.request = request
        self.timeout = timeout
        self.window = window
    }

    deinit {
        if callID != 0, !finished { connection.core.cancel(callID) }
    }

    /// The next item; starts the call first if needed. After the end or an error: nil.
    func next() async throws(BrokerError) -> StreamItem? {
        guard !finished else { return nil }
        if callID == 0 {
            if Task.isCancelled {
                finished = true
                throw .callCancelled
            }
            do {
                callID = try connection.core.startStream(request, timeout: timeout, window: window)
            } catch {
                finished = true
                throw error
            }
        }
        switch await connection.core.nextStreamEvent(callID) {
        case .item(let item, let grant):
            if grant > 0 { connection.core.grant(callID, items: grant) }
            return item
        case .end:
            finished = true
            return nil
        case .failure(let error):
            finished = true
            throw error
        case .response:
            finished = true
            connection.core.cancel(callID)
            throw .unexpectedResponse(request.methodName)
        }
    }
}
