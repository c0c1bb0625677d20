#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM end the measurement early: the run drains briefly and reports what it has.
enum Interrupt {
    /// The flag the signals raise.
    static let flag = StopFlag()

    /// Installs the handlers (a second signal exits at once).
    static func install() {
        _ = flag.isRaised  // initialise the flag before a handler can run
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { _ in
                if Interrupt.flag.isRaised { _exit(130) }
                Interrupt.flag.raise()
            }
        }
    }
}
