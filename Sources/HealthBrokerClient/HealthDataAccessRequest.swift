import Dispatch
import BrokerModel

/// The trigger form of `healthDataAccessRequest(store:shareTypes:readTypes:trigger:completion:)`: asks for access each time a trigger value changes.
///
/// Create it with the types and the trigger's initial value (which fires nothing), then call
/// `setTrigger(_:)`. Every value that differs from the last one fires exactly one authorization
/// request; an equal value fires none. Each request runs in the background, and its completion runs
/// on a global dispatch queue with `success(true)` once the request was handled (also when the
/// person denied everything) or the request's error. Requests fired in a row run concurrently;
/// the broker asks the person about them one at a time. Safe to use from any thread or task.
public final class HealthDataAccessRequest<Trigger: Equatable & Sendable>: Sendable {
    /// Runs one authorization request for the share types and the read types (nil: read nothing).
    package typealias RequestFunction = @Sendable (Set<ObjectType>, Set<ObjectType>?) async throws -> Void

    /// The last trigger value and how many changes fired a request.
    private struct State {
        var trigger: Trigger
        var changes: Int
    }

    private let shareTypes: Set<ObjectType>
    private let readTypes: Set<ObjectType>?
    private let request: RequestFunction
    private let completion: @Sendable (Result<Bool, Error>) -> Void
    private let state: Locked<State>

    /// Creates a request that asks `store` to share `shareTypes` and read `readTypes` (nil: share only) whenever the trigger changes.
    public convenience init(store: HealthStore, shareTypes: Set<ObjectType>, readTypes: Set<ObjectType>? = nil, trigger: Trigger, completion: @escaping @Sendable (Result<Bool, Error>) -> Void) {
        self.init(shareTypes: shareTypes, readTypes: readTypes, trigger: trigger, request: { share, read in
            try await store.requestAuthorization(toShare: share, read: read ?? [])
        }, completion: completion)
    }

    /// Creates a request that runs `request` whenever the trigger changes (tests pass a fake instead of a store).
    package init(shareTypes: Set<ObjectType>, readTypes: Set<ObjectType>? = nil, trigger: Trigger, request: @escaping RequestFunction, completion: @escaping @Sendable (Result<Bool, Error>) -> Void) {
        self.shareTypes = shareTypes
        self.readTypes = readTypes
        self.request = request
        self.completion = completion
        self.state = Locked(State(trigger: trigger, changes: 0))
    }

    /// The last trigger value set (initially the one given at creation).
    public var trigger: Trigger {
        state.withLock { $0.trigger }
    }

    /// How many requests the trigger has fired so far (one per change).
    package var firedRequestCount: Int {
        state.withLock { $0.changes }
    }

    /// Sets the trigger: a value that differs from the last one fires exactly one request; an equal value fires none.
    ///
    /// Returns at once; the completion runs later on a background queue (DispatchQueue.global()).
    public func setTrigger(_ value: Trigger) {
        // Compare-and-set: the trigger's `==` is caller code, so it runs outside the lock; the value
        // is stored only if no other change landed since it was read, otherwise compare again.
        while true {
            let (last, changes) = state.withLock { ($0.trigger, $0.changes) }
            if last == value { return }
            let stored = state.withLock { current in
                guard current.changes == changes else { return false }
                current.trigger = value
                current.changes += 1
                return true
            }
            if stored {
                fire()
                return
            }
        }
    }

    /// Starts one request in the background and hands its outcome to the completion on a global queue.
    private func fire() {
        let request = request, completion = completion, shareTypes = shareTypes, readTypes = readTypes
        Task.detached {
            let result: Result<Bool, Error>
            do {
                try await request(shareTypes, readTypes)
                result = .success(true)
            } catch {
                result = .failure(error)
            }
            DispatchQueue.global().async { completion(result) }
        }
    }
}
