import Foundation
import HealthBrokerClient

/// One thing the interactive consent agent reacts to: a prompt event, a typed line, the end of either, or a new connection.
enum AgentInput: Sendable {
    /// An event from prompt watch number `watch`.
    case event(PromptEvent, watch: Int)
    /// A line from standard input, without its newline.
    case line(String)
    /// Standard input ended.
    case endOfInput
    /// Watch number `watch` ended: nil when the broker closed it, else the error.
    case watchEnded(BrokerError?, watch: Int)
    /// A reconnection attempt succeeded: the agent now talks to the broker through `admin`.
    case connected(BrokerAdmin)

    /// Starts reading standard input's lines into `inputs`, on a thread of their own (`readLine` blocks).
    ///
    /// One reader serves every connection, so lines typed while the broker is away are not lost.
    static func readLines(into inputs: AsyncStream<AgentInput>.Continuation) {
        Thread.detachNewThread {
            while let line = readLine(strippingNewline: true) { inputs.yield(.line(line)) }
            inputs.yield(.endOfInput)
        }
    }

    /// Forwards `prompts` into `inputs`, tagged with `watch` so events of an abandoned watch can be told apart.
    static func forward(_ prompts: PromptEventStream, watch: Int, into inputs: AsyncStream<AgentInput>.Continuation) -> Task<Void, Never> {
        Task {
            do throws(BrokerError) {
                var events = prompts.makeAsyncIterator()
                while let event = try await events.next() { inputs.yield(.event(event, watch: watch)) }
                inputs.yield(.watchEnded(nil, watch: watch))
            } catch {
                inputs.yield(.watchEnded(error, watch: watch))
            }
        }
    }

    /// Connects with `connect` until it works, waiting `initialDelay` seconds first and doubling up to
    /// `maxDelay` after each failure, then yields the connection; ends quietly when cancelled.
    static func reconnect(
        into inputs: AsyncStream<AgentInput>.Continuation,
        initialDelay: Double, maxDelay: Double,
        connect: @escaping @Sendable () async throws(BrokerError) -> BrokerAdmin
    ) -> Task<Void, Never> {
        Task {
            var delay = initialDelay
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(delay))
                if Task.isCancelled { return }
                if let admin = try? await connect() {
                    inputs.yield(.connected(admin))
                    return
                }
                delay = min(delay * 2, maxDelay)
            }
        }
    }
}
