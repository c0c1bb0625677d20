public import BrokerModel

/// A call's method and arguments (the `Call.request` oneof of the .proto).
public enum Request: Sendable, Hashable {
    /// Opens an app session; must be the first call on the app socket.
    indirect case hello(HelloRequest)
    /// Liveness: answers after an optional delay.
    case ping(PingRequest)
    /// Streams ping items under flow control.
    case pingStream(PingStreamRequest)
    /// Asks the person for share and read access; waits until every type is decided.
    case requestAuthorization(share: [ObjectType], read: [ObjectType])
    /// The app's share status for one type.
    case authorizationStatus(ObjectType)
    /// Whether asking for these sets would prompt.
    case requestStatus(share: [ObjectType], read: [ObjectType])
    /// Earliest readable dates for limited grants among these types.
    case earliestAuthorizedSampleDate([ObjectType])
    /// The store-wide earliest permitted date.
    case earliestPermittedSampleDate
    /// Characteristic values the app may read.
    case readCharacteristics([ObjectType])
    /// Saves a batch of samples, all or nothing.
    case save([Sample])
    /// Deletes the app's own samples by uuid, or of a type matching a predicate.
    indirect case delete(uuids: [String], type: ObjectType?, predicate: SamplePredicate?)
    /// Streams clamped samples in pages.
    indirect case query(SampleQuery)
    /// Streams changes since an anchor.
    indirect case anchoredQuery(AnchoredQuery)
    /// Computes statistics.
    indirect case statistics(StatisticsQuery)
    /// Streams change notifications for readable types.
    case observe([ObjectType])
    /// Admin: registers an app and returns its token once.
    indirect case adminAddApp(AppRegistration)
    /// Admin: lists registered apps.
    case adminListApps
    /// Admin: removes an app and closes its connections; its samples go too when `deleteData`.
    case adminRemoveApp(appID: String, deleteData: Bool)
    /// Admin: replaces an app's token.
    case adminRotateToken(appID: String)
    /// Admin: broker status.
    case adminBrokerInfo
    /// Admin: streams pending prompts, then prompt events (a consent agent).
    case adminWatchPrompts
    /// Admin: answers a prompt.
    case adminAnswerPrompt(promptID: UInt64, decisions: [TypeDecision])
    /// Admin: cancels a prompt on the person's behalf.
    case adminCancelPrompt(promptID: UInt64)
    /// Admin: an app's recorded grants.
    case adminListGrants(appID: String)
    /// Admin: forgets an app's decisions for these types (all when empty).
    case adminRevoke(appID: String, types: [ObjectType])
    /// Admin: every app that ever asked.
    case adminListSources
    /// Admin: sets or clears a characteristic of the person.
    indirect case adminSetCharacteristic(CharacteristicValue)
    /// Admin: why an app sees what it sees for a type.
    indirect case adminExplain(appID: String, type: ObjectType)
    /// Admin: records the person's decision for one app and type directly (no prompt); a nil part
    /// of the decision leaves that part as recorded.
    indirect case adminSetGrant(appID: String, decision: TypeDecision)
    /// Admin: writes a consistent copy of the whole store to a new file at `path` (absolute, on the broker's side).
    case adminBackup(path: String)
    /// Admin: statistics over every source's samples of a type (the person's own view; no app scope).
    indirect case adminStatistics(StatisticsQuery)
    /// Admin: sets the source order of a type, best first (empty clears it).
    case adminSetSourcePriority(type: ObjectType, appIDs: [String])
    /// Admin: the source order set for a type.
    case adminListSourcePriority(type: ObjectType)
    /// Admin: imports samples as a given source app; the chunks of one import share a `batchID`
    /// ("" for none), which makes them one access-log row per type.
    case adminImport(appID: String, samples: [Sample], batchID: String = "")
    /// Admin: streams every sample (of a type, of an app).
    indirect case adminExport(type: ObjectType?, appID: String?)
    /// Admin: the access log (of an app), newest first.
    case adminAccessLog(appID: String?, limit: UInt32)
    /// A request case this build does not know (a newer client); answered UNIMPLEMENTED.
    case unknown
    /// A known method whose arguments this build cannot take (a sample without a value it knows);
    /// answered with the carried error on the call's own id. Only decoding makes it; encoded, it is
    /// a call with no request case.
    indirect case invalid(InvalidRequest)

    /// The method of the .proto's method table this request calls; nil for `.unknown`. The one
    /// switch over the cases: name, socket and streaming all come from the generated table.
    public var method: ProtoMethod? {
        switch self {
        case .hello: .hello
        case .ping: .ping
        case .pingStream: .pingStream
        case .requestAuthorization: .requestAuthorization
        case .authorizationStatus: .authorizationStatus
        case .requestStatus: .requestStatus
        case .earliestAuthorizedSampleDate: .earliestAuthorizedSampleDate
        case .earliestPermittedSampleDate: .earliestPermittedSampleDate
        case .readCharacteristics: .readCharacteristics
        case .save: .save
        case .delete: .delete
        case .query: .query
        case .anchoredQuery: .anchoredQuery
        case .statistics: .statistics
        case .observe: .observe
        case .adminAddApp: .adminAddApp
        case .adminListApps: .adminListApps
        case .adminRemoveApp: .adminRemoveApp
        case .adminRotateToken: .adminRotateToken
        case .adminBrokerInfo: .adminBrokerInfo
        case .adminWatchPrompts: .adminWatchPrompts
        case .adminAnswerPrompt: .adminAnswerPrompt
        case .adminCancelPrompt: .adminCancelPrompt
        case .adminListGrants: .adminListGrants
        case .adminRevoke: .adminRevoke
        case .adminListSources: .adminListSources
        case .adminSetCharacteristic: .adminSetCharacteristic
        case .adminExplain: .adminExplain
        case .adminSetGrant: .adminSetGrant
        case .adminBackup: .adminBackup
        case .adminStatistics: .adminStatistics
        case .adminSetSourcePriority: .adminSetSourcePriority
        case .adminListSourcePriority: .adminListSourcePriority
        case .adminImport: .adminImport
        case .adminExport: .adminExport
        case .adminAccessLog: .adminAccessLog
        case .unknown: nil
        case .invalid(let invalid): invalid.method
        }
    }

    /// The method's name, for logs and error messages ("Unknown" for `.unknown`).
    public var methodName: String { method?.name ?? "Unknown" }

    /// Which socket serves a method (the generated method table's type).
    public typealias Socket = MethodSocket

    /// The socket that serves the method (from the method table; `.both` for `.unknown`). The
    /// broker answers a method sent to the other socket with PERMISSION_DENIED at once, before
    /// looking at its arguments.
    public var socket: Socket { method?.socket ?? .both }

    /// True for methods served only on the admin socket.
    public var isAdmin: Bool { socket == .admin }

    /// True for methods that answer with a stream of items.
    public var isStreaming: Bool { method?.isServerStreaming ?? false }
}
