import BrokerModel
import BrokerTransport
import HealthBrokerClient

/// The consent agent inside `healthctl ui`: watches the broker's prompts on the admin socket and
/// hands every event to the hub on the loop thread. When the broker goes away it reconnects with
/// backoff (0.5 s doubling to 10 s); the new watch streams the pending prompts first.
struct UIPromptFeed: Sendable {
    let socket: String
    let loop: EventLoop
    /// The hub, touched on the loop thread only.
    let hub: UIEventHub

    /// Runs until cancelled.
    func run() async {
        var delay = 0.5
        while !Task.isCancelled {
            do throws(BrokerError) {
                let admin = try await BrokerAdmin.connect(socketPath: socket)
                defer { admin.close() }
                loop.execute { [hub] in hub.setConnected(true) }
                delay = 0.5
                for try await event in admin.watchPrompts() {
                    loop.execute { [hub] in hub.apply(event) }
                }
            } catch {
                Console.error("healthctl ui: prompt watch: \(error.description); reconnecting")
            }
            loop.execute { [hub] in hub.setConnected(false) }
            try? await Task.sleep(for: .seconds(delay))
            delay = min(delay * 2, 10)
        }
    }
}
