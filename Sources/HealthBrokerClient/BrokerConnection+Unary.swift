import Dispatch
import BrokerModel
package import BrokerWire

extension BrokerConnection {
    /// Runs one unary call and returns its response.
    ///
    /// `timeout` travels to the broker; the client also gives up 250 ms after it (DEADLINE_EXCEEDED),
    /// so a hung broker cannot hang the caller. While reconnecting, the call first waits for the link
    /// (within `timeout`; without one it fails at once with UNAVAILABLE). Task cancellation sends
    /// Cancel and throws CANCELLED at once. A non-OK status is thrown as its `BrokerError`.
    package func unary(_ request: Proto.Call.Request, timeout: Duration?) async throws(BrokerError) -> Proto.ServerFrame.Response {
        if Task.isCancelled { throw .callCancelled }
        // The usual call finds the link up: no suspension point, no async frame for `liveCore`.
        let (core, left) = if let up = liveUpCore { (up, timeout) } else { try await liveCore(timeout: timeout) }
        let (id, holds, solo) = try await core.startUnary(request, timeout: left, mayHold: request.repliesAtOnce)
        switch await core.awaitUnary(id, holds: holds, solo: solo) {
        case .response(let response): return response
        case .failure(let error): throw error
        case .item, .end: throw .unexpectedResponse(request.method.name)
        }
    }

    /// Runs one unary call and hands the result to `completion` on a global dispatch queue.
    package func unary(_ request: Proto.Call.Request, timeout: Duration?, completion: @escaping @Sendable (Result<Proto.ServerFrame.Response, BrokerError>) -> Void) {
        let waiter = CallWaiter.callback { event in
            // The waiter keeps the connection alive until the call ends.
            withExtendedLifetime(self) {}
            let result: Result<Proto.ServerFrame.Response, BrokerError> = switch event {
            case .response(let response): .success(response)
            case .failure(let error): .failure(error)
            case .item, .end: .failure(.unexpectedResponse(request.method.name))
            }
            DispatchQueue.global().async { completion(result) }
        }
        if let core = liveUpCore {
            do {
                try core.startUnary(request, timeout: timeout, waiter: waiter)
            } catch {
                DispatchQueue.global().async { completion(.failure(error)) }
            }
            return
        }
        Task {
            do throws(BrokerError) {
                let (core, left) = try await liveCore(timeout: timeout)
                try core.startUnary(request, timeout: left, waiter: waiter)
            } catch {
                DispatchQueue.global().async { completion(.failure(error)) }
            }
        }
    }

    /// Runs one unary call and extracts the expected response case, mapped to the model (`Date`, not
    /// µs); any other case is INTERNAL, and so is a response the mapping refuses (it throws).
    func unary<Value>(
        _ request: Proto.Call.Request, timeout: Duration?,
        expecting extract: (Proto.ServerFrame.Response) throws(BrokerError) -> Value?
    ) async throws(BrokerError) -> Value {
        let response = try await unary(request, timeout: timeout)
        guard let value = try extract(response) else { throw .unexpectedResponse(request.method.name) }
        return value
    }
}
