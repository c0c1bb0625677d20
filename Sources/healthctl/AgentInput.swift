import Foundation
import HealthBrokerClient

/// One thing the interactive consent agent reacts to: a prompt event, a typed line, or the end of either.
enum AgentInput: Sendable {
    /// An event from the broker's prompt watch.
    case event(PromptEvent)
    /// A line from standard input, without its newline.
    case line(String)
    /// Standard input ended.
    case endOfInput
    /// The watch ended: nil when the broker closed it, else the error.
    case watchEnded(BrokerError?)

    /// Prompt events and standard input's lines merged into one stream, in arrival order.
    ///
    /// Lines are read on a thread of their own (`readLine` blocks); the watch runs in a task that
    /// ends when the stream is dropped.
    static func merged(prompts: PromptEventStream) -> AsyncStream<AgentInput> {
        let (stream, continuation) = AsyncStream<AgentInput>.makeStream()
        let watch = Task {
            do throws(BrokerError) {
                var events = prompts.makeAsyncIterator()
                while let event = try await events.next() { continuation.yield(.event(event)) }
                continuation.yield(.watchEnded(nil))
            } catch {
                continuation.yield(.watchEnded(error))
            }
        }
        continuation.onTermination = { _ in watch.cancel() }
        Thread.detachNewThread {
            while let line = readLine(strippingNewline: true) { continuation.yield(.line(line)) }
            continuation.yield(.endOfInput)
        }
        return stream
    }
}
