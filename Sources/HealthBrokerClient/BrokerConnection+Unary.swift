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
    package func unary(_ request: Request, timeout: Duration?) async throws(BrokerError) -> Response {
        if Task.isCancelled { throw .callCancelled }
        // The usual call finds the link up: no suspension point, no async frame for `liveCore`.
        let (core, left) = if let up = liveUpCore { (up, timeout) } else { try await liveCore(timeout: timeout) }
        let id = try await core.startUnary(request, timeout: left)
        switch await core.awaitUnary(id) {
        case .response(let response): return response
        case .failure(let error): throw error
        case .item, .end: throw .unexpectedResponse(request.methodName)
        }
    }

    /// Runs one unary call and hands the result to `completion` on a global dispatch queue.
    package func unary(_ request: Request, timeout: Duration?, completion: @escaping @Sendable (Result<Response, BrokerError>) -> Void) {
        let waiter = CallWaiter.callback { event in
            // The waiter keeps the connection alive until the call ends.
            withExtendedLifetime(self) {}
            let result: Result<Response, BrokerError> = switch event {
            case .response(let response): .success(response)
            case .failure(let error): .failure(error)
            case .item, .end: .failure(.unexpectedResponse(request.methodName))
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

    /// Runs one unary call and extracts the expected response case; any other case is INTERNAL.
    func unary<Value>(_ request: Request, timeout: Duration?, expecting extract: (Response) -> Value?) async throws(BrokerError) -> Value {
        let response = try await unary(request, timeout: timeout)
        guard let value = extract(response) else { throw .unexpectedResponse(request.methodName) }
        return value
    }
}
