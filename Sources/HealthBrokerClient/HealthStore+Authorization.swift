import BrokerModel
import BrokerWire

extension HealthStore {
    /// How long a look-up (status, request status, dates, characteristics) may take before the client gives up.
    static let lookupTimeout: Duration = .seconds(30)

    /// Asks the person for permission to share (write) `typesToShare` and read `typesToRead`.
    ///
    /// Returns once the request was handled: at once when every type is already decided, otherwise
    /// when the person has answered the prompt — also when they denied everything, so success says
    /// nothing about what was granted (read access is never revealed). There is no default `timeout`:
    /// a person may take minutes. The person cancelling is CANCELLED with `userCanceled`; a `timeout`
    /// that passes is DEADLINE_EXCEEDED; both sets empty, a share type that cannot be shared, or a
    /// set without the matching usage text registered is INVALID_ARGUMENT. Cancelling the task
    /// withdraws the prompt.
    public func requestAuthorization(toShare typesToShare: Set<ObjectType>, read typesToRead: Set<ObjectType>, timeout: Duration? = nil) async throws(BrokerError) {
        let response = try await connection.unary(Self.authorizationRequest(typesToShare, typesToRead), timeout: timeout)
        guard case .requestAuthorization = response else { throw .unexpectedResponse("RequestAuthorization") }
    }

    /// Asks for permission as `requestAuthorization(toShare:read:timeout:)` and hands the result to
    /// `completion` on a background queue: `success(true)` once the request was handled.
    public func requestAuthorization(toShare typesToShare: Set<ObjectType>, read typesToRead: Set<ObjectType>, timeout: Duration? = nil, completion: @escaping @Sendable (Result<Bool, BrokerError>) -> Void) {
        connection.unary(Self.authorizationRequest(typesToShare, typesToRead), timeout: timeout) { result in
            completion(result.flatMap { response in
                if case .requestAuthorization = response { .success(true) } else { .failure(.unexpectedResponse("RequestAuthorization")) }
            })
        }
    }

    /// The app's share (write) status for `type`; a read-only grant leaves it `notDetermined`.
    public func authorizationStatus(for type: ObjectType) async throws(BrokerError) -> AuthorizationStatus {
        try await connection.unary(.authorizationStatus(.with { $0.type = type.identifier }), timeout: Self.lookupTimeout) { response in
            // A number this build does not know reads as not determined.
            if case .authorizationStatus(let answer) = response { AuthorizationStatus(rawValue: answer.status.rawValue) ?? .notDetermined } else { nil }
        }
    }

    /// Whether asking for these sets would prompt: `shouldRequest` when some type was never asked for.
    public func statusForAuthorizationRequest(toShare typesToShare: Set<ObjectType>, read typesToRead: Set<ObjectType>) async throws(BrokerError) -> RequestStatus {
        let request = Proto.RequestStatusRequest.with {
            $0.shareTypes = typesToShare.wireOrder.map(\.identifier)
            $0.readTypes = typesToRead.wireOrder.map(\.identifier)
        }
        return try await connection.unary(.requestStatus(request), timeout: Self.lookupTimeout) { response in
            if case .requestStatus(let answer) = response { RequestStatus(rawValue: answer.status.rawValue) ?? .unknown } else { nil }
        }
    }

    private static func authorizationRequest(_ share: Set<ObjectType>, _ read: Set<ObjectType>) -> Proto.Call.Request {
        .requestAuthorization(.with {
            $0.shareTypes = share.wireOrder.map(\.identifier)
            $0.readTypes = read.wireOrder.map(\.identifier)
        })
    }
}
