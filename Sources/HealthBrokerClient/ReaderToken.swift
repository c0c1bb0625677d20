import Synchronization

/// `CallTable.reader`, published for reading without the connection's lock: the loop decides on it
/// whether to poll the socket for `POLLIN` (and may read at once when it says `.loop`, since only
/// the loop's thread moves it away from `.loop`).
///
/// Written only by `CallTable.setReader`, under the connection's lock. Ordering: publishing is a
/// releasing store and `current` an acquiring load, so a reader that sees `.loop` sees everything
/// the previous reader (a holder) did to `ReaderState`.
final class ReaderToken: Sendable {
    /// Who reads, without the holder's call id.
    enum State: Int {
        /// The loop's thread reads.
        case loop = 0
        /// A solo call's caller reads (a hold).
        case held = 1
        /// Nobody reads: no call is registered.
        case idle = 2
    }

    private let state = Atomic<Int>(State.loop.rawValue)
    /// Holds so far (figures and tests).
    let holds = Atomic<Int>(0)

    /// A token the loop holds.
    init() {}

    /// The current state.
    var current: State { State(rawValue: state.load(ordering: .acquiring))! }

    /// Publishes `reader`. Under the connection's lock (`CallTable.setReader` only).
    func publish(_ reader: SocketReader) {
        let value = switch reader {
        case .loop: State.loop
        case .holder: State.held
        case .nobody: State.idle
        }
        state.store(value.rawValue, ordering: .releasing)
    }
}
