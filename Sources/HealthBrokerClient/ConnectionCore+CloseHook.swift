import BrokerModel

/// Who a connection tells that it ended, and whether it already did.
enum CloseHook {
    /// Nobody registered yet, and the connection is open.
    case unset
    /// Registered: run once when the connection ends.
    case set(@Sendable (ConnectionCore, BrokerError) -> Void)
    /// The connection ended before anyone registered; the error later calls get.
    case fired(BrokerError)
    /// Run (or handed its error) already.
    case done
}

extension ConnectionCore {
    /// Runs `hook` once when the connection ends (EOF, an error, `close`), with the error later calls
    /// get; at once, on this thread, if it has already ended. Register one hook per connection.
    ///
    /// The hook runs on whichever thread ends the connection (often the loop thread), outside every lock;
    /// it must not block.
    func onClose(_ hook: @escaping @Sendable (ConnectionCore, BrokerError) -> Void) {
        let endedWith: BrokerError? = closeHook.withLock { state in
            switch state {
            case .unset:
                state = .set(hook)
                return nil
            case .fired(let error):
                state = .done
                return error
            case .set, .done:
                return nil
            }
        }
        if let endedWith { hook(self, endedWith) }
    }

    /// Tells the hook (or keeps for it) that the call table just closed; later calls get `error`.
    func announceClosed(_ error: BrokerError) {
        let hook: (@Sendable (ConnectionCore, BrokerError) -> Void)? = closeHook.withLock { state in
            switch state {
            case .unset:
                state = .fired(error)
                return nil
            case .set(let hook):
                state = .done
                return hook
            case .fired, .done:
                return nil
            }
        }
        hook?(self, error)
    }
}
