public import BrokerModel

/// A unary result or a stream item (the `ServerFrame.response` oneof of the .proto).
public enum Response: Sendable, Hashable {
    /// One item of a server stream.
    case streamItem(StreamItem)
    /// The session is open.
    indirect case hello(HelloResponse)
    /// A ping's answer.
    case ping(PingResponse)
    /// The authorization request was handled (also when everything was denied).
    case requestAuthorization
    /// The share status.
    case authorizationStatus(AuthorizationStatus)
    /// Whether a request would prompt.
    case requestStatus(RequestStatus)
    /// Earliest readable dates (µs) for limited grants; types without one are absent.
    case earliestAuthorizedSampleDate(TypeDates)
    /// The store-wide earliest permitted date (µs).
    case earliestPermittedSampleDate(Int64)
    /// Characteristic values, one per requested type.
    case readCharacteristics([CharacteristicValue])
    /// How many samples were stored and how many were already there unchanged.
    case save(saved: UInt32, unchanged: UInt32)
    /// How many samples were deleted.
    case delete(deleted: UInt32)
    /// Statistics.
    case statistics(StatisticsResult)
    /// The new app and its token (shown once).
    indirect case adminAddApp(AppCredentials)
    /// Every registered app.
    case adminListApps([AppInfo])
    /// The app is gone; how many of its connections were closed.
    case adminRemoveApp(connectionsClosed: UInt32)
    /// The app with its new token (shown once).
    indirect case adminRotateToken(AppCredentials)
    /// Broker status.
    indirect case adminBrokerInfo(BrokerInfo)
    /// The answer was recorded.
    case adminAnswerPrompt
    /// The prompt was cancelled.
    case adminCancelPrompt
    /// An app's grants.
    case adminListGrants([Grant])
    /// How many types were revoked.
    case adminRevoke(revoked: UInt32)
    /// Every app that ever asked or has samples stored.
    case adminListSources([Source])
    /// The characteristic was set.
    case adminSetCharacteristic
    /// Why an app sees what it sees.
    indirect case adminExplain(Explanation)
    /// The grant as recorded after AdminSetGrant.
    indirect case adminSetGrant(Grant)
    /// The backup AdminBackup wrote: its path, size in bytes and SQLite pages.
    indirect case adminBackup(path: String, bytes: Int64, pages: Int64)
    /// The person's own statistics (AdminStatistics): every source's samples, no clamp.
    case adminStatistics(StatisticsResult)
    /// The source order was set.
    case adminSetSourcePriority
    /// The source order of a type, best first (empty when none was set).
    case adminListSourcePriority(appIDs: [String])
    /// How many imported samples were stored and how many were already there.
    case adminImport(saved: UInt32, unchanged: UInt32)
    /// Access log entries, newest first.
    case adminAccessLog([AccessLogEntry])
}

/// One item of a server stream; the case matches the call's method.
public enum StreamItem: Sendable, Hashable {
    /// An item of PingStream.
    case ping(PingResponse)
    /// An item of AdminWatchPrompts.
    indirect case promptEvent(PromptEvent)
    /// A page of Query or AdminExport.
    case samples([Sample])
    /// A page of AnchoredQuery.
    case anchoredPage(AnchoredPage)
    /// An Observe notification: this type changed.
    case observed(type: ObjectType, changedMicros: Int64)
}
