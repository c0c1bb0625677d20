import BrokerModel
import BrokerSupport
import BrokerServer
#if canImport(Glibc)
import Glibc
#endif

extension DaemonCommand {
    /// Connects the broker to systemd when systemd started it: the sockets it passed become the
    /// broker's listeners, and the broker's ready, reloading and stopping hooks notify it.
    ///
    /// Without `LISTEN_*` and `NOTIFY_SOCKET` the configuration is left as it is. The broker itself
    /// knows nothing of systemd; this is the daemon's part.
    static func attachServiceManager(to configuration: inout BrokerConfiguration) throws(BrokerError) {
        let activation = try SocketActivation.takeFromProcess()
        configuration.inheritedAppSocket = activation.appSocket
        configuration.inheritedAdminSocket = activation.adminSocket
        guard let notifier = try ServiceNotifier.takeFromProcess() else { return }
        let logger = Logger(component: "healthbrokerd", minimumLevel: configuration.logLevel)
        let pid = getpid()
        let serving = "serving apps on \(configuration.appSocketPath), healthctl on \(configuration.adminSocketPath)"
        @Sendable func notify(_ message: String) {
            do throws(BrokerError) {
                try notifier.send(message)
            } catch {
                // The broker serves either way; systemd will time the start out and say so.
                logger.warning("could not notify the service manager", ["error": error.message])
            }
        }
        configuration.onReady = { notify(ServiceNotifier.ready(pid: pid, status: serving)) }
        configuration.onReloading = { notify(ServiceNotifier.reloading(status: "reloading the consent policy")) }
        configuration.onStopping = { notify(ServiceNotifier.stopping(status: "stopping: finishing calls in flight")) }
    }
}
