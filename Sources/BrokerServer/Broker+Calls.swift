import BrokerModel
import BrokerSupport
import BrokerTransport
import BrokerWire

extension Broker {
    /// Validates a call against the session and the limits, registers it, and dispatches it.
    ///
    /// `frameBytes` is the size of the call's frame: a registered call holds that much (plus
    /// `CallContext.overheadBytes`) against its connection's reading budget until it ends.
    func handle(_ call: Call, in session: Session, frameBytes: Int = 0) {
        let connection = session.connection
        guard call.callID != 0 else {
            connection.close(with: BrokerError(code: .invalidArgument, domain: .protocolError, message: "call id 0 is reserved"))
            return
        }
        guard session.calls[call.callID] == nil else {
            connection.close(with: BrokerError(code: .invalidArgument, domain: .protocolError, message: "call id \(call.callID) is already in flight"))
            return
        }
        if session.kind == .app, session.appID == nil {
            // Answered on the call's own id, as a refused Hello is: the caller learns why its call
            // failed; then the connection closes (PROTOCOL.md, "Session").
            guard case .hello(let hello) = call.request else {
                logger.warning("call before Hello", ["session": session.label, "method": call.request.methodName])
                connection.closeAfterSending(ServerFrame(callID: call.callID, status: Status(.unauthenticated("the first call on the app socket must be Hello"))))
                return
            }
            guard state == .running else {
                refuse(call, in: session, .shuttingDown())
                return
            }
            handleHello(hello, call: call, session: session)
            return
        }
        guard state == .running else {
            refuse(call, in: session, .shuttingDown())
            return
        }
        guard session.calls.count < configuration.maxCallsInFlight else {
            refuse(call, in: session, BrokerError(code: .resourceExhausted, message: "more than \(configuration.maxCallsInFlight) calls in flight on this connection"))
            return
        }
        if let error = placementError(call.request, session: session) {
            if case .hello(let hello) = call.request {
                logger.warning("repeated hello refused", ["session": session.label, "app_id": session.appID ?? "", "claimed_app_id": hello.appID])
            }
            refuse(call, in: session, error)
            return
        }
        guard call.timeoutMicros >= 0 else {
            refuse(call, in: session, .invalidArgument("timeout_us must not be negative"))
            return
        }
        if case .invalid(let invalid) = call.request {
            // Well-formed protobuf with content this build cannot take: this call's error only.
            refuse(call, in: session, invalid.error)
            return
        }
        if answerAtOnce(call.request, callID: call.callID, session: session) {
            // Registered, answered and ended in one go: nothing else could see it in the table.
            callsServed += 1
            return
        }
        let credit = call.initialCredit == 0 ? Call.defaultStreamCredit : min(call.initialCredit, Call.maxStreamCredit)
        let context = CallContext(callID: call.callID, method: call.request.methodName, session: session, credit: credit)
        session.calls[call.callID] = context
        // The decoded request lives as long as the call (a delayed ping keeps its payload): while
        // such bytes and the queued output reach the high-water mark, the connection is not read.
        context.heldBytes = frameBytes + CallContext.overheadBytes
        connection.hold(context.heldBytes)
        if call.timeoutMicros > 0 {
            context.deadlineTimer = loop.schedule(afterMicros: call.timeoutMicros) { [weak self, weak context] in
                guard let self, let context, context.isLive else { return }
                self.finish(context, error: BrokerError(code: .deadlineExceeded, message: "\(context.method) passed its deadline"))
            }
        }
        dispatch(call.request, context: context, session: session)
    }

    /// Why `request` may not run on this session's socket, if so: every method belongs to one socket
    /// (`Request.socket`), and on the other it is PERMISSION_DENIED before its arguments are looked at.
    /// Handlers may then rely on the socket (an app method always has the session's app id).
    private func placementError(_ request: Request, session: Session) -> BrokerError? {
        switch (session.kind, request) {
        case (_, .unknown):
            return BrokerError(code: .unimplemented, message: "this broker (\(BrokerVersion.broker)) does not know the requested method")
        case (.admin, .hello):
            return BrokerError(code: .permissionDenied, message: "Hello is for the app socket; the admin socket needs no session")
        case (.app, .hello):
            return BrokerError(code: .failedPrecondition, message: "this connection already said Hello")
        default:
            break
        }
        switch (session.kind, request.socket) {
        case (.app, .admin):
            return BrokerError(code: .permissionDenied, message: "\(request.methodName) is served on the admin socket only")
        case (.admin, .app):
            return BrokerError(code: .permissionDenied, message: "\(request.methodName) is served on the app socket only, after Hello")
        default:
            return nil
        }
    }

    /// Answers, without a `CallContext` or a call-table entry, the methods that need only loop-thread
    /// memory and reply at once (Ping without delay, AuthorizationStatus, RequestStatus and the two
    /// sample-date methods); false, having sent nothing, for any other request.
    ///
    /// The reply is the one the call would get through the table: such a call is registered, answered
    /// and removed within one `handle`, so no cancel, deadline or disconnect can come in between.
    private func answerAtOnce(_ request: Request, callID: UInt64, session: Session) -> Bool {
        switch request {
        case .ping(let ping) where ping.delayMicros == 0:
            let now = Microseconds.now()
            session.connection.send { WireCodec.appendPingReply(callID: callID, payload: ping.payload, brokerTimeMicros: now, to: &$0) }
        case .authorizationStatus(let type):
            answerAuthorizationStatus(type, callID: callID, session: session)
        case .requestStatus(let share, let read):
            send(requestStatusAnswer(share: share, read: read, session: session), callID: callID, on: session)
        case .earliestAuthorizedSampleDate(let types):
            answerEarliestAuthorizedSampleDate(types, callID: callID, session: session)
        case .earliestPermittedSampleDate:
            session.connection.send(ServerFrame(callID: callID, response: .earliestPermittedSampleDate(configuration.earliestPermittedMicros)))
        default:
            return false
        }
        return true
    }

    /// Sends a unary outcome: the response, or the error as the call's status.
    private func send(_ outcome: Result<Response, BrokerError>, callID: UInt64, on session: Session) {
        switch outcome {
        case .success(let response): session.connection.send(ServerFrame(callID: callID, response: response))
        case .failure(let error): session.connection.send(ServerFrame(callID: callID, status: Status(error)))
        }
    }

    private func dispatch(_ request: Request, context: CallContext, session: Session) {
        switch request {
        case .ping(let ping): handlePing(ping, context: context)
        case .pingStream(let stream): handlePingStream(stream, context: context)
        case .adminAddApp(let registration): handleAddApp(registration, context: context)
        case .adminListApps: handleListApps(context: context)
        case .adminRemoveApp(let appID, let deleteData): handleRemoveApp(appID, deleteData: deleteData, context: context)
        case .adminRotateToken(let appID): handleRotateToken(appID, context: context)
        case .adminBrokerInfo: handleBrokerInfo(context: context)
        case .requestAuthorization(let share, let read): handleRequestAuthorization(share: share, read: read, context: context)
        case .authorizationStatus, .requestStatus, .earliestAuthorizedSampleDate, .earliestPermittedSampleDate:
            // Normally answered before a context is made (answerAtOnce); the same answer here.
            _ = answerAtOnce(request, callID: context.callID, session: session)
            end(context)
        case .readCharacteristics(let types): handleReadCharacteristics(types, context: context)
        case .adminWatchPrompts: handleWatchPrompts(context: context)
        case .adminAnswerPrompt(let promptID, let decisions): handleAnswerPrompt(promptID, decisions: decisions, context: context)
        case .adminCancelPrompt(let promptID): handleCancelPrompt(promptID, context: context)
        case .adminListGrants(let appID): handleListGrants(appID, context: context)
        case .adminRevoke(let appID, let types): handleRevoke(appID, types: types, context: context)
        case .adminListSources: handleListSources(context: context)
        case .adminSetCharacteristic(let value): handleSetCharacteristic(value, context: context)
        case .adminExplain(let appID, let type): handleExplain(appID, type: type, context: context)
        case .adminSetGrant(let appID, let decision): handleSetGrant(appID, decision: decision, context: context)
        case .adminBackup(let path): handleBackup(path, context: context)
        case .adminStatistics(let query): handleAdminStatistics(query, context: context)
        case .adminSetSourcePriority(let type, let appIDs): handleSetSourcePriority(type, appIDs: appIDs, context: context)
        case .adminListSourcePriority(let type): handleListSourcePriority(type, context: context)
        case .save(let samples): handleSave(samples, context: context)
        case .delete(let uuids, let type, let predicate): handleDelete(uuids: uuids, type: type, predicate: predicate, context: context)
        case .query(let query): handleQuery(query, context: context)
        case .anchoredQuery(let query): handleAnchoredQuery(query, context: context)
        case .statistics(let query): handleStatistics(query, context: context)
        case .observe(let types): handleObserve(types, context: context)
        case .adminImport(let appID, let samples, let batchID): handleImport(appID: appID, samples: samples, batchID: batchID, context: context)
        case .adminExport(let type, let appID): handleExport(type: type, appID: appID, context: context)
        case .adminAccessLog(let appID, let limit): handleAccessLog(appID: appID, limit: limit, context: context)
        case .invalid(let invalid): finish(context, error: invalid.error)
        case .hello, .unknown: finish(context, error: .internal("unroutable \(request.methodName)"))
        }
    }

    /// The app id of the session an app method runs in. `placementError` admits app methods only on
    /// app sessions after Hello, so there always is one; should that ever break, the call still gets
    /// an answer (INTERNAL) instead of hanging (and holding up a shutdown for its grace period).
    func sessionAppID(_ context: CallContext) -> String? {
        if let appID = context.session?.appID { return appID }
        finish(context, error: .internal("\(context.method) runs only in an app session"))
        return nil
    }

    /// Answers a call that was never registered (refused at the door) with one status frame.
    func refuse(_ call: Call, in session: Session, _ error: BrokerError) {
        session.connection.send(ServerFrame(callID: call.callID, status: Status(error)))
    }

    /// Ends a live call with a unary result; waits (the call still live) while its connection has no room.
    func reply(_ context: CallContext, _ response: Response) {
        guard context.isLive, let session = context.session else { return }
        guard session.connection.hasRoomForOutput else {
            session.connection.whenRoomForOutput { [weak self, weak context] in
                guard let self, let context else { return }
                self.reply(context, response)
            }
            return
        }
        session.connection.send(ServerFrame(callID: context.callID, response: response))
        end(context)
    }

    /// Ends a live call (unary or stream) with an error status.
    ///
    /// Without room the status waits like any reply; whichever of a call's final frames was parked
    /// first is sent and the later ones find the call ended.
    func finish(_ context: CallContext, error: BrokerError) {
        guard context.isLive, let session = context.session else { return }
        guard session.connection.hasRoomForOutput else {
            session.connection.whenRoomForOutput { [weak self, weak context] in
                guard let self, let context else { return }
                self.finish(context, error: error)
            }
            return
        }
        session.connection.send(ServerFrame(callID: context.callID, status: Status(error)))
        end(context)
    }

    /// Ends a live stream with OK (waiting for room like `reply`).
    func endStream(_ context: CallContext) {
        guard context.isLive, let session = context.session else { return }
        guard session.connection.hasRoomForOutput else {
            session.connection.whenRoomForOutput { [weak self, weak context] in
                guard let self, let context else { return }
                self.endStream(context)
            }
            return
        }
        session.connection.send(ServerFrame(callID: context.callID, status: .ok))
        end(context)
    }

    /// Sends one stream item if the call is live, has credit and its connection has room; returns
    /// false otherwise. Without room the call's pump is parked and runs again once there is room.
    @discardableResult
    func send(_ item: StreamItem, on context: CallContext) -> Bool {
        guard context.credit > 0, context.isLive, let session = context.session else { return false }
        guard session.connection.hasRoomForOutput else {
            parkPump(context)
            return false
        }
        context.credit -= 1
        session.connection.send(ServerFrame(callID: context.callID, response: .streamItem(item)))
        return true
    }

    /// True when a stream may produce now: live, with credit, and with room on its connection (else
    /// its pump is parked until there is room).
    func mayProduce(_ context: CallContext) -> Bool {
        guard context.credit > 0, context.isLive, let session = context.session else { return false }
        guard session.connection.hasRoomForOutput else {
            parkPump(context)
            return false
        }
        return true
    }

    /// Runs the call's pump again once its connection has room (once, however often it is asked).
    func parkPump(_ context: CallContext) {
        guard !context.isPumpParked, let connection = context.session?.connection else { return }
        context.isPumpParked = true
        connection.whenRoomForOutput { [weak context] in
            guard let context else { return }
            context.isPumpParked = false
            if context.isLive { context.pump?() }
        }
    }

    // MARK: Store reads per connection

    /// Store reads whose results (query pages, changes, export pages) one connection may have
    /// fetched and not yet queued: two, so one query's next page is read while the loop sends the
    /// last, and a connection's many streams cannot make the broker hold a page for each.
    static let maxStoreReadsPerConnection = 2

    /// Takes one of the connection's store-read slots for `context`; false (the call's pump waits for
    /// room or a slot, and runs again then) when the stream may not produce or no slot is free.
    func beginStoreRead(_ context: CallContext) -> Bool {
        guard mayProduce(context), let session = context.session else { return false }
        guard session.storeReadsInFlight < Self.maxStoreReadsPerConnection else {
            if !context.waitsForStoreRead {
                context.waitsForStoreRead = true
                session.storeReadWaiters.append(context)
            }
            return false
        }
        session.storeReadsInFlight += 1
        context.storeReadsHeld += 1
        return true
    }

    /// Gives back a slot once its result is queued (or dropped), and runs the next waiting pump.
    func endStoreRead(_ context: CallContext) {
        guard context.storeReadsHeld > 0, let session = context.session else { return }
        context.storeReadsHeld -= 1
        session.storeReadsInFlight -= 1
        while !session.storeReadWaiters.isEmpty {
            let next = session.storeReadWaiters.removeFirst()
            next.waitsForStoreRead = false
            guard next.isLive, let pump = next.pump else { continue }
            pump()
            break
        }
    }

    /// Forgets a call whose last frame is already queued; may complete a pending shutdown.
    private func end(_ context: CallContext) {
        context.session?.calls.removeValue(forKey: context.callID)
        endWithoutReply(context)
        callsServed += 1
        checkDrained()
    }

    /// Releases a call's timers, producers, store-read slots and held bytes; its session table
    /// entry is already gone.
    func endWithoutReply(_ context: CallContext) {
        if let timer = context.deadlineTimer { loop.cancelTimer(timer) }
        context.deadlineTimer = nil
        context.pump = nil
        let onEnd = context.onEnd
        context.onEnd = nil
        onEnd?()
        while context.storeReadsHeld > 0 { endStoreRead(context) }
        if context.heldBytes > 0, let connection = context.session?.connection {
            connection.release(context.heldBytes)
            context.heldBytes = 0
        }
    }
}
