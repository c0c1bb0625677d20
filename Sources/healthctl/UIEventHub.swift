import BrokerModel
import BrokerHTTPTransport
import BrokerTransport

/// The live side of the page: the pending prompts as the agent's watch reports them, and the open
/// event streams (server-sent events) they are pushed to. Loop thread only.
///
/// Each change sends every stream the whole list (`event: prompts`), so a page that connects late
/// sees the backlog and a prompt answered elsewhere or withdrawn disappears on the next message.
/// `event: changed` tells the pages to reload what they show (a decision was changed here).
/// `@unchecked Sendable` only so tasks can hand it to `loop.execute`; every method asserts the loop thread.
final class UIEventHub: @unchecked Sendable {
    private let loop: EventLoop
    private var prompts: [Prompt] = []
    private var connected = false
    private var streams: [ObjectIdentifier: HTTPResponseStream] = [:]
    /// Seconds between keep-alive comments, which also find streams whose peer left.
    static let keepAliveSeconds: Int64 = 15

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Starts the keep-alive timer.
    func start() {
        loop.assertInLoop()
        scheduleKeepAlive()
    }

    /// Adds a stream and sends it the current prompts.
    func add(_ stream: HTTPResponseStream) {
        loop.assertInLoop()
        let key = ObjectIdentifier(stream)
        streams[key] = stream
        stream.onClose { [weak self] in self?.streams[key] = nil }
        // Tell the browser to reconnect quickly if the stream breaks.
        stream.send(Array("retry: 1000\n\n".utf8))
        stream.send(message(event: "prompts", data: snapshot()))
    }

    /// A prompt event from the watch.
    func apply(_ event: PromptEvent) {
        loop.assertInLoop()
        switch event {
        case .raised(let prompt):
            guard !prompts.contains(where: { $0.id == prompt.id }) else { return }
            prompts.append(prompt)
        case .resolved(let id, _):
            prompts.removeAll { $0.id == id }
            broadcast(event: "changed", data: Array("{}".utf8))
        }
        broadcast(event: "prompts", data: snapshot())
    }

    /// The watch is (re)opened (its first events are the backlog) or lost: either way the list starts over.
    func setConnected(_ isConnected: Bool) {
        loop.assertInLoop()
        connected = isConnected
        prompts = []
        broadcast(event: "prompts", data: snapshot())
    }

    /// Tells every page that decisions changed.
    func changed() {
        loop.assertInLoop()
        broadcast(event: "changed", data: Array("{}".utf8))
    }

    private func snapshot() -> [UInt8] {
        UIJSON.encode(UIJSON.PromptsEvent(connected: connected, prompts: prompts.map(UIJSON.PromptInfo.init)))
    }

    private func broadcast(event: String, data: [UInt8]) {
        let bytes = message(event: event, data: data)
        for stream in streams.values { stream.send(bytes) }
    }

    /// One server-sent event; `data` is one line of JSON (JSONEncoder never writes a newline).
    private func message(event: String, data: [UInt8]) -> [UInt8] {
        Array("event: \(event)\ndata: ".utf8) + data + Array("\n\n".utf8)
    }

    private func scheduleKeepAlive() {
        loop.schedule(afterMicros: Self.keepAliveSeconds * 1_000_000) { [weak self] in
            guard let self else { return }
            for stream in self.streams.values { stream.send(Array(": keep-alive\n\n".utf8)) }
            self.scheduleKeepAlive()
        }
    }
}
