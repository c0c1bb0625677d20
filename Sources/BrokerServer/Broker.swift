public import BrokerModel
import BrokerPolicy
import BrokerSupport
import BrokerCrypto
import BrokerStore
public import BrokerTransport
import BrokerWire
#if canImport(Glibc)
import Glibc
#endif

/// The broker service: listens on the app and admin sockets, runs sessions and calls on one libuv
/// loop thread, and sends SQLite work to one store worker.
///
/// Create it, then call `run()`, which blocks until a shutdown (SIGINT, SIGTERM or
/// `requestShutdown()`) has finished; SIGHUP reloads the consent policy file and does nothing else.
/// All state below is loop-thread only.
public final class Broker {
    /// Where the broker is in its life.
    enum State {
        case created, running, draining, stopped
    }

    let configuration: BrokerConfiguration
    let logger: Logger
    let loop: EventLoop
    var state = State.created
    var worker: StoreWorker!
    var appListener: PipeListener?
    var adminListener: PipeListener?
    var signalWatchers: [SignalWatcher] = []
    /// The in-memory copy of the app registry, kept in step with SQLite.
    var apps: [String: StoredApp] = [:]
    var sessions: [ObjectIdentifier: Session] = [:]
    /// Open app-socket connections per peer uid, for the per-uid limit.
    var connectionsByUID: [UInt32: Int] = [:]
    /// Open admin-socket connections, for their own limit.
    var adminConnections = 0
    /// Calls answered. Counted per call, so without the run-time exclusivity check (~75 instructions
    /// an access, benchmarks/PROFILE.md item 9); loop thread only, each access one statement.
    @exclusivity(unchecked) var callsServed: UInt64 = 0
    let startedMicros = Microseconds.now()
    var shutdownTimer: TimerToken?
    /// The in-memory copy of every app's grants, kept in step with SQLite.
    var grants: [String: AppGrants] = [:] {
        didSet { grantsGeneration &+= 1 }
    }
    /// Counts changes to `grants`: a session's cached copy of its app's grants is current while
    /// it was taken at this generation.
    var grantsGeneration: UInt64 = 0
    /// The person's characteristics (date of birth, …), kept in step with SQLite.
    var characteristics: [ObjectType: String] = [:]
    /// Authorization requests by app: the one being prompted and those waiting their turn.
    var requestQueues: [String: RequestQueue] = [:]
    /// Requests whose prompt is out for an answer, by prompt id.
    var openPrompts: [UInt64: AuthorizationRequest] = [:]
    var nextPromptID: UInt64 = 1
    /// The consent policy in force: the configuration's, until a SIGHUP reloads the file.
    var consentPolicy: ConsentPolicy?
    /// SIGHUP reloads started and the latest one applied (a slower, older read never wins).
    var policyReloadsStarted: UInt64 = 0
    var policyReloadsApplied: UInt64 = 0
    /// Consent agents watching prompts.
    var agents: [ObjectIdentifier: ConsentAgent] = [:]
    /// Open Observe streams.
    var observers: [ObjectIdentifier: SampleObserver] = [:]
    /// Makes version 2 anchors and reads versions 1 and 2, under the same stored key.
    var anchorCodec: AnchorCodec!
    /// False after a store job failed because the database is inaccessible, until one succeeds.
    var storeHealthy = true
    /// Whether no stored sample ends before the earliest permitted date (checked when the store
    /// opens; saves and imports refuse such samples): full access then reads without a floor.
    var noSampleEndsBeforeEarliestPermitted = false

    /// Creates a broker; nothing is opened until `run()`.
    public init(configuration: BrokerConfiguration) throws(BrokerError) {
        self.configuration = configuration
        logger = Logger(component: "healthbrokerd", minimumLevel: configuration.logLevel)
        consentPolicy = configuration.consentPolicy
        do {
            loop = try EventLoop()
        } catch {
            throw error.brokerError
        }
    }

    /// Opens the store, binds (or adopts) both sockets and serves until shut down; returns after a
    /// clean stop.
    public func run() throws(BrokerError) {
        signal(SIGPIPE, SIG_IGN)
        // Let the daemon hold as many connections as the hard file limit allows.
        FileDescriptorLimit.raiseToHardLimit()
        Self.unblockShutdownSignals()
        try start(listening: true)
        let inherited = [
            configuration.inheritedAppSocket.map { _ in "app" }, configuration.inheritedAdminSocket.map { _ in "admin" },
        ].compactMap { $0 }
        logger.info("broker started", [
            "app_socket": appListener?.path ?? configuration.appSocketPath,
            "admin_socket": adminListener?.path ?? configuration.adminSocketPath,
            "inherited_sockets": inherited.isEmpty ? "none" : inherited.joined(separator: ","),
            "data_dir": configuration.dataDirectory, "apps": apps.count, "version": BrokerVersion.broker,
        ])
        // Both sockets listen and the store is open: whoever waits for the broker may go on.
        configuration.onReady?()
        loop.run()
        // Every handle closed before the loop did (libuv's uv_loop_close found none open): nothing
        // was left half torn down. A handle still open is a bug in this broker, so it is an error.
        if !loop.closedCleanly { logger.error("the event loop closed with handles still open") }
        logger.info("broker stopped", ["calls_served": callsServed, "loop_closed_cleanly": loop.closedCleanly])
    }

    /// Opens the store, starts the worker and, when `listening`, binds both sockets and watches
    /// signals; the broker is then running, and serves once its loop runs.
    ///
    /// On failure the loop is closed and run to its end, so that its handles are freed.
    /// In-process tests start without listening and hand the broker their own connections
    /// (`accept(_:kind:)`).
    func start(listening: Bool) throws(BrokerError) {
        loop.assertInLoop()
        let store: BrokerStore
        do throws(BrokerError) {
            store = try openStore()
        } catch {
            // The loop's own handles hold their owners until their close callbacks run.
            loop.close()
            loop.run()
            throw error
        }
        worker = StoreWorker(store: store, loop: loop, syncer: configuration.durableAgainstPowerLoss ? store.makeWALSyncer() : nil)
        worker.start()
        if listening {
            do throws(BrokerError) {
                try startListening()
            } catch {
                appListener?.close()
                adminListener?.close()
                for watcher in signalWatchers { watcher.close() }
                signalWatchers.removeAll()
                worker.stopAndWait()
                loop.close()
                loop.run()
                throw error
            }
        }
        state = .running
        schedulePruning()
    }

    /// Checks no live broker serves the sockets, opens the store and loads the in-memory copies.
    private func openStore() throws(BrokerError) -> BrokerStore {
        // An inherited socket answers because it listens already (systemd holds it), not because
        // another broker serves it: only the paths this broker will bind are checked.
        let boundPaths = [
            configuration.inheritedAppSocket == nil ? configuration.appSocketPath : nil,
            configuration.inheritedAdminSocket == nil ? configuration.adminSocketPath : nil,
        ].compactMap { $0 }
        for path in boundPaths where SocketPath.isServed(path) {
            throw BrokerError(code: .alreadyExists, message: "a live broker already serves \(path)")
        }
        // Power-loss durability comes from the worker's WALSyncer, which fsyncs off the writing
        // thread; SQLite itself commits at NORMAL either way.
        let store = try BrokerStore(dataDirectory: configuration.dataDirectory, durability: .normal)
        if let migration = store.migration {
            logger.info("schema migrated", [
                "from": migration.fromVersion, "to": migration.toVersion, "backup": migration.backupPath,
            ])
        }
        if configuration.maxDatabasePages > 0 { try store.limitPageCount(configuration.maxDatabasePages) }
        let anchorKey = try Self.anchorKey(store)
        anchorCodec = AnchorCodec(key: anchorKey)
        // Hello compares an unknown app's token against a stand-in hash; make it before the first Hello.
        AppToken.warmUp()
        try store.pruneTombstones(deletedBefore: Microseconds.now() - configuration.tombstoneRetentionMicros)
        noSampleEndsBeforeEarliestPermitted = try !store.hasSamples(endingBefore: configuration.earliestPermittedMicros)
        for app in try store.allApps() { apps[app.info.appID] = app }
        for (appID, list) in try store.allGrants() { grants[appID] = AppGrants(list) }
        characteristics = try store.allCharacteristics()
        try store.checkpointInBackground()
        return store
    }

    /// The anchor key: made once with libsodium and kept in SQLite so anchors survive restarts.
    ///
    /// Version 1 anchors use it as their HMAC key; version 2 derives its own subkeys from it.
    private static func anchorKey(_ store: BrokerStore) throws(BrokerError) -> [UInt8] {
        if let key = try store.metaValue("anchor_mac_key"), key.count == MessageAuthenticator.keyLength { return key }
        let key = MessageAuthenticator.generateKey()
        try store.setMetaValue("anchor_mac_key", key)
        return key
    }

    /// Asks the broker to shut down as SIGTERM would; callable from any thread.
    public func requestShutdown() {
        // Handed to the loop, not bound to it: this may run on any thread. The caller's thread only
        // reads `loop` (a constant) here; the broker's state is touched by the loop thread alone.
        let this = HandOff(self)
        loop.execute { this.take().beginShutdown(reason: "requested") }
    }

    /// A parent may have started us with SIGINT/SIGTERM/SIGHUP blocked (the mask survives exec): unblock them.
    private static func unblockShutdownSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    private func startListening() throws(BrokerError) {
        // Signals first: a client may connect (and a supervisor signal) as soon as a socket listens,
        // and until its watcher exists a signal has its default action — SIGHUP's is to exit at once.
        try watchSignals()
        appListener = try makeListener(
            inherited: configuration.inheritedAppSocket, path: configuration.appSocketPath, mode: 0o666, firstConnectionID: 1
        ) { [unowned self] connection in self.accept(pipe: connection, kind: .app) }
        adminListener = try makeListener(
            inherited: configuration.inheritedAdminSocket, path: configuration.adminSocketPath, mode: 0o600, firstConnectionID: 1 << 48
        ) { [unowned self] connection in self.accept(pipe: connection, kind: .admin) }
    }

    /// A listener on the socket the service manager passed, or else on `path`, bound here.
    private func makeListener(
        inherited: Int32?, path: String, mode: UInt32, firstConnectionID: UInt64, onAccept: @escaping (PipeConnection) -> Void
    ) throws(BrokerError) -> PipeListener {
        let limits = OutputLimits(highWater: configuration.outputHighWater, stallTimeoutMicros: configuration.stallTimeoutMicros)
        if let inherited {
            return try PipeListener(
                loop: loop, adopting: inherited, maxFrameBytes: configuration.maxFrameBytes, outputLimits: limits,
                frameTimeoutMicros: configuration.frameTimeoutMicros, firstConnectionID: firstConnectionID, onAccept: onAccept)
        }
        return try PipeListener(
            loop: loop, path: path, mode: mode, maxFrameBytes: configuration.maxFrameBytes, outputLimits: limits,
            frameTimeoutMicros: configuration.frameTimeoutMicros, firstConnectionID: firstConnectionID, onAccept: onAccept)
    }

    /// SIGINT and SIGTERM shut down; SIGHUP reloads the consent policy.
    private func watchSignals() throws(BrokerError) {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            do {
                let watcher = try SignalWatcher(loop: loop, signal: number) { [unowned self] received in
                    switch received {
                    case SIGHUP: self.reloadConsentPolicy()
                    case SIGINT: self.beginShutdown(reason: "SIGINT")
                    default: self.beginShutdown(reason: "SIGTERM")
                    }
                }
                signalWatchers.append(watcher)
            } catch {
                throw error.brokerError
            }
        }
    }

    /// Takes a connection a listener accepted: its frames and its close come to this broker.
    private func accept(pipe connection: PipeConnection, kind: Session.Kind) {
        connection.delegate = self
        accept(connection, kind: kind)
    }

    /// Opens a session for a new connection on the `kind` socket, or refuses it (shutting down,
    /// admin peer, connection limits). Its frames must then reach `receive(_:on:)`, and its close
    /// `didClose(_:error:)`.
    func accept(_ connection: any FrameConnection, kind: Session.Kind) {
        loop.assertInLoop()
        let session = Session(kind: kind, connection: connection)
        connection.context = session
        sessions[ObjectIdentifier(connection)] = session
        // App and admin connections are counted apart: apps cannot take the admin socket's places.
        switch kind {
        case .app: if let uid = connection.peer?.uid { connectionsByUID[uid, default: 0] += 1 }
        case .admin: adminConnections += 1
        }
        logger.debug("connection opened", ["session": session.label])
        guard state == .running else {
            connection.close(with: .shuttingDown())
            return
        }
        // The peer check comes first on the admin socket: a refused peer never competes for a place.
        if kind == .admin, !isAdminPeer(connection.peer) {
            let uid = connection.peer.map { String($0.uid) } ?? "unknown"
            logger.warning("admin connection refused", ["session": session.label, "uid": uid])
            connection.close(with: BrokerError(code: .permissionDenied, message: "uid \(uid) may not use the admin socket"))
            return
        }
        if let refusal = connectionLimitError(kind: kind, peer: connection.peer) {
            logger.warning("connection refused", ["session": session.label, "reason": refusal.message])
            connection.close(with: refusal)
        }
        if kind == .app { armHelloDeadline(session) }
    }

    /// Closes an app connection that has not opened its session within `helloTimeoutMicros`: an idle
    /// or trickling connection would otherwise hold its slot (and the per-uid count) for ever.
    private func armHelloDeadline(_ session: Session) {
        let timeout = configuration.helloTimeoutMicros
        // The connection is held weakly, not the session: a weakly referenced session would have a
        // side table (see `CallContext.session`).
        loop.schedule(afterMicros: timeout) { [weak self, weak connection = session.connection] in
            guard let self, let connection, let session = connection.context as? Session,
                session.appID == nil, !session.connection.isClosed else { return }
            self.logger.warning("no hello in time", ["session": session.label])
            session.connection.close(with: BrokerError(
                code: .deadlineExceeded, domain: .protocolError,
                message: "no successful Hello within \(timeout / 1_000) ms of connecting"))
        }
    }

    /// RESOURCE_EXHAUSTED when a limit for this kind of connection is reached (this one counted): the
    /// admin socket's own limit, or the app socket's global and per-uid limits.
    private func connectionLimitError(kind: Session.Kind, peer: PeerCredentials?) -> BrokerError? {
        if kind == .admin {
            guard adminConnections > configuration.maxAdminConnections else { return nil }
            return BrokerError(code: .resourceExhausted, message: "the admin socket has reached its limit of \(configuration.maxAdminConnections) connections")
        }
        if sessions.count - adminConnections > configuration.maxConnections {
            return BrokerError(code: .resourceExhausted, message: "the broker has reached its limit of \(configuration.maxConnections) app connections")
        }
        guard let uid = peer?.uid else { return nil }
        if connectionsByUID[uid, default: 0] > configuration.maxConnectionsPerUID {
            return BrokerError(code: .resourceExhausted, message: "uid \(uid) has reached its limit of \(configuration.maxConnectionsPerUID) app connections")
        }
        return nil
    }

    private func isAdminPeer(_ peer: PeerCredentials?) -> Bool {
        guard let peer else { return false }
        return peer.uid == geteuid() || peer.uid == 0 || peer.uid == configuration.adminUID
    }
}

extension Broker: PipeConnectionDelegate {
    /// Decodes one client frame and routes it.
    public func connection(_ connection: PipeConnection, didReceiveFrame payload: Span<UInt8>) {
        receive(payload, on: connection)
    }

    /// Ends every call of the closed connection and forgets its session.
    public func connectionDidClose(_ connection: PipeConnection, error: BrokerError?) {
        didClose(connection, error: error)
    }

    /// Logs the moment a peer that stopped reading is cut off: the close that reports the error comes
    /// once the peer takes its final status, or up to the grace period later.
    public func connection(_ connection: PipeConnection, cutsOffStalledPeerWith error: BrokerError) {
        let label = (connection.context as? Session)?.label ?? "connection#\(connection.id)"
        logger.warning("cutting off a peer that stopped reading", [
            "session": label, "queued_bytes": connection.queuedOutputBytes, "error": error.description,
        ])
    }

    /// Decodes one client frame of `connection` and routes it.
    ///
    /// Inlined into the `PipeConnectionDelegate` method, so that a daemon's frame costs no extra
    /// call for the seam (and `connection` is a concrete `PipeConnection` there).
    @inline(__always)
    func receive(_ payload: Span<UInt8>, on connection: any FrameConnection) {
        loop.assertInLoop()
        guard let session = connection.context as? Session else { return }
        // A call, the usual frame, is read straight into its message; anything else (cancel, credit,
        // bytes the strict reader declines) through the frame's oneof.
        if var call = payload.withUnsafeBufferPointer({ WireCodec.decodeCallFrame($0) }) {
            handle(
                callID: call.callID, timeoutMicros: call.timeoutMicros, initialCredit: call.initialCredit,
                request: call.request.take(), in: session, frameBytes: payload.count)
            return
        }
        let frame: Proto.ClientFrame.Kind
        do throws(BrokerError) {
            frame = try payload.withUnsafeBufferPointer { bytes throws(BrokerError) in try WireCodec.decodeClientFrameKind(bytes) }
        } catch {
            logger.warning("undecodable frame", ["session": session.label])
            connection.close(with: error)
            return
        }
        switch consume frame {
        case .call(var call):
            handle(
                callID: call.callID, timeoutMicros: call.timeoutMicros, initialCredit: call.initialCredit,
                request: call.request.take(), in: session, frameBytes: payload.count)
        case .cancel(let cancel):
            if let context = session.calls[cancel.callID] {
                finish(context, error: BrokerError(code: .cancelled, message: "cancelled by the client"))
            }
        case .credit(let credit):
            if let context = session.calls[credit.callID], let pump = context.pump {
                // Credit past the window is dropped, not an error (docs/PROTOCOL.md, Flow control).
                context.credit = UInt32(min(UInt64(context.credit) + UInt64(credit.items), UInt64(Call.maxStreamCredit)))
                pump()
            }
        }
    }

    /// Ends every call of the closed `connection` and forgets its session.
    func didClose(_ connection: any FrameConnection, error: BrokerError?) {
        loop.assertInLoop()
        guard let session = sessions.removeValue(forKey: ObjectIdentifier(connection)) else { return }
        switch session.kind {
        case .app:
            if let uid = connection.peer?.uid {
                let left = connectionsByUID[uid, default: 1] - 1
                connectionsByUID[uid] = left > 0 ? left : nil
            }
        case .admin:
            adminConnections -= 1
        }
        if let error { logger.warning("connection closed with an error", ["session": session.label, "error": error.description]) }
        logger.debug("connection closed", ["session": session.label, "calls_dropped": session.calls.count])
        for context in session.calls.values { endWithoutReply(context) }
        session.calls.removeAll()
        connection.context = nil
        checkDrained()
    }
}
