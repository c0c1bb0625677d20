import BrokerModel
import BrokerSupport
import BrokerTransport
import BrokerWire

extension Broker {
    /// Validates a call against the session and the limits, registers it, and dispatches it.
    ///
    /// The call's fields come as the generated `Proto.Call` holds them, its request moved out: the
    /// broker dispatches on the request case and each handler takes the generated request, or the
    /// fields it needs, so no model `Request` is built. `frameBytes` is the size of the call's
    /// frame: a registered call holds that much (plus `CallContext.overheadBytes`) against its
    /// connection's reading budget until it ends.
    func handle(
        callID: UInt64, timeoutMicros: Int64, initialCredit: UInt32, request: consuming Proto.Call.Request?,
        in session: Session, frameBytes: Int = 0
    ) {
        let connection = session.connection
        guard callID != 0 else {
            connection.close(with: BrokerError(code: .invalidArgument, domain: .protocolError, message: "call id 0 is reserved"))
            return
        }
        guard session.calls[callID] == nil else {
            connection.close(with: BrokerError(code: .invalidArgument, domain: .protocolError, message: "call id \(callID) is already in flight"))
            return
        }
        guard let request = request.take() else {
            refuseUnknownMethod(callID, in: session)
            return
        }
        if session.kind == .app, session.appID == nil {
            // Answered on the call's own id, as a refused Hello is: the caller learns why its call
            // failed; then the connection closes (PROTOCOL.md, "Session").
            guard case .hello(let hello) = request else {
                logger.warning("call before Hello", ["session": session.label, "method": request.method.name])
                connection.closeAfterSending(ServerFrame(callID: callID, status: Status(.unauthenticated("the first call on the app socket must be Hello"))))
                return
            }
            guard state == .running else {
                refuse(callID, in: session, .shuttingDown())
                return
            }
            handleHello(hello, callID: callID, session: session)
            return
        }
        guard state == .running else {
            refuse(callID, in: session, .shuttingDown())
            return
        }
        guard session.calls.count < configuration.maxCallsInFlight else {
            refuse(callID, in: session, BrokerError(code: .resourceExhausted, message: "more than \(configuration.maxCallsInFlight) calls in flight on this connection"))
            return
        }
        if let error = placementError(request, session: session) {
            if case .hello(let hello) = request {
                logger.warning("repeated hello refused", ["session": session.label, "app_id": session.appID ?? "", "claimed_app_id": hello.appID])
            }
            refuse(callID, in: session, error)
            return
        }
        guard timeoutMicros >= 0 else {
            refuse(callID, in: session, .invalidArgument("timeout_us must not be negative"))
            return
        }
        if let error = request.contentError {
            // Well-formed protobuf with content this build cannot take: this call's error only.
            refuse(callID, in: session, error)
            return
        }
        if answerAtOnce(request, callID: callID, session: session) {
            // Registered, answered and ended in one go: nothing else could see it in the table.
            callsServed += 1
            return
        }
        let credit = initialCredit == 0 ? Call.defaultStreamCredit : min(initialCredit, Call.maxStreamCredit)
        let context = CallContext(callID: callID, method: request.method.name, session: session, credit: credit)
        session.calls[callID] = context
        // The decoded request lives as long as the call (a delayed ping keeps its payload): while
        // such bytes and the queued output reach the high-water mark, the connection is not read.
        context.heldBytes = frameBytes + CallContext.overheadBytes
        connection.hold(context.heldBytes)
        if timeoutMicros > 0 {
            // Counted from arrival, as the timer is; kept in wall-clock µs for what the person sees
            // (a prompt's deadline).
            let (sum, overflow) = Microseconds.now().addingReportingOverflow(timeoutMicros)
            context.deadlineMicros = overflow ? Int64.max : sum
            context.deadlineTimer = loop.schedule(afterMicros: timeoutMicros) { [weak self, weak context] in
                guard let self, let context, context.isLive else { return }
                self.finish(context, error: BrokerError(code: .deadlineExceeded, message: "\(context.method) passed its deadline"))
            }
        }
        dispatch(request, context: context)
    }

    /// Answers a call whose request case is unset or unknown to this build, after the same checks
    /// `handle` makes first: before Hello it ends the connection, as any other call would; otherwise
    /// UNIMPLEMENTED on the call's id.
    private func refuseUnknownMethod(_ callID: UInt64, in session: Session) {
        if session.kind == .app, session.appID == nil {
            logger.warning("call before Hello", ["session": session.label, "method": "Unknown"])
            session.connection.closeAfterSending(ServerFrame(callID: callID, status: Status(.unauthenticated("the first call on the app socket must be Hello"))))
            return
        }
        guard state == .running else {
            refuse(callID, in: session, .shuttingDown())
            return
        }
        guard session.calls.count < configuration.maxCallsInFlight else {
            refuse(callID, in: session, BrokerError(code: .resourceExhausted, message: "more than \(configuration.maxCallsInFlight) calls in flight on this connection"))
            return
        }
        refuse(callID, in: session, BrokerError(code: .unimplemented, message: "this broker (\(BrokerVersion.broker)) does not know the requested method"))
    }

    /// Why `request` may not run on this session's socket, if so: every method belongs to one socket
    /// (`ProtoMethod.socket`), and on the other it is PERMISSION_DENIED before its arguments are
    /// looked at. Handlers may then rely on the socket (an app method always has the session's app id).
    private func placementError(_ request: Proto.Call.Request, session: Session) -> BrokerError? {
        let method = request.method
        if method == .hello {
            switch session.kind {
            case .admin: return BrokerError(code: .permissionDenied, message: "Hello is for the app socket; the admin socket needs no session")
            case .app: return BrokerError(code: .failedPrecondition, message: "this connection already said Hello")
            }
        }
        switch (session.kind, method.socket) {
        case (.app, .admin):
            return BrokerError(code: .permissionDenied, message: "\(method.name) is served on the admin socket only")
        case (.admin, .app):
            return BrokerError(code: .permissionDenied, message: "\(method.name) is served on the app socket only, after Hello")
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
    private func answerAtOnce(_ request: Proto.Call.Request, callID: UInt64, session: Session) -> Bool {
        switch request {
        case .ping(let ping) where ping.delayMicros == 0:
            let now = Microseconds.now()
            session.connection.send { WireCodec.appendPingReply(callID: callID, payload: ping.payload, brokerTimeMicros: now, to: &$0) }
        case .authorizationStatus(let request):
            answerAuthorizationStatus(request.resolvedType.objectType, callID: callID, session: session)
        case .requestStatus(let request):
            answerRequestStatus(
                share: ObjectType.types(protoIdentifiers: request.shareTypes),
                read: ObjectType.types(protoIdentifiers: request.readTypes),
                callID: callID, session: session)
        case .earliestAuthorizedSampleDate(let request):
            answerEarliestAuthorizedSampleDate(request.resolvedTypes, callID: callID, session: session)
        case .earliestPermittedSampleDate:
            let response = Proto.EarliestPermittedSampleDateResponse.with { $0.dateMicros = configuration.earliestPermittedMicros }
            session.connection.send { Proto.ServerFrame.appendFrame(callID: callID, status: nil, earliestPermittedSampleDate: response, to: &$0) }
        default:
            return false
        }
        return true
    }

    // The dispatch is generated from the .proto's services (Generated/CallHandler.pb.swift:
    // `dispatch` calls `handle<Rpc>(request, context:)`); the handlers of the calls answered at
    // once and of Hello are here, the others beside their work (Broker+CallHandler.swift adapts the
    // handlers that take model values).

    /// Hello is answered by `handle` before a call is registered; never dispatched.
    func handleHello(_ request: Proto.HelloRequest, context: CallContext) {
        finish(context, error: .internal("unroutable Hello"))
    }

    /// Normally answered before a context is made (`answerAtOnce`); the same answer here.
    func handleAuthorizationStatus(_ request: Proto.AuthorizationStatusRequest, context: CallContext) {
        answerAtOnceAndEnd(.authorizationStatus(request), context: context)
    }

    /// Normally answered before a context is made (`answerAtOnce`); the same answer here.
    func handleRequestStatus(_ request: Proto.RequestStatusRequest, context: CallContext) {
        answerAtOnceAndEnd(.requestStatus(request), context: context)
    }

    /// Normally answered before a context is made (`answerAtOnce`); the same answer here.
    func handleEarliestAuthorizedSampleDate(_ request: Proto.EarliestAuthorizedSampleDateRequest, context: CallContext) {
        answerAtOnceAndEnd(.earliestAuthorizedSampleDate(request), context: context)
    }

    /// Normally answered before a context is made (`answerAtOnce`); the same answer here.
    func handleEarliestPermittedSampleDate(_ request: Proto.EarliestPermittedSampleDateRequest, context: CallContext) {
        answerAtOnceAndEnd(.earliestPermittedSampleDate(request), context: context)
    }

    /// Answers a registered call of a method `answerAtOnce` serves, and ends it.
    private func answerAtOnceAndEnd(_ request: Proto.Call.Request, context: CallContext) {
        guard context.isLive, let session = context.session else { return }
        _ = answerAtOnce(request, callID: context.callID, session: session)
        end(context)
    }

    /// The model samples of a Save's or AdminImport's decoded samples; `handle` already refused a
    /// request with a sample without a known value (`contentError`), so none throws.
    static func samples(_ samples: [Proto.Sample]) -> [Sample] {
        guard let decoded = try? Sample.samples(proto: samples) else {
            preconditionFailure("a sample with a value did not map")
        }
        return decoded
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
    func refuse(_ callID: UInt64, in session: Session, _ error: BrokerError) {
        session.connection.send(ServerFrame(callID: callID, status: Status(error)))
    }

    /// Ends a live call with a unary result (the generated response: no model enum between the
    /// handler and the wire); waits (the call still live) while its connection has no room.
    func reply(_ context: CallContext, _ response: Proto.ServerFrame.Response) {
        guard context.isLive, let session = context.session else { return }
        guard session.connection.hasRoomForOutput else {
            session.connection.whenRoomForOutput { [weak self, weak context] in
                guard let self, let context else { return }
                self.reply(context, response)
            }
            return
        }
        let callID = context.callID
        session.connection.send { WireCodec.append(callID: callID, response: response, to: &$0) }
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
        let callID = context.callID
        // Sample pages (the correlation Query's, AdminExport's) and AnchoredQuery pages go out
        // through the generated row writer, straight from the model samples: the bytes of their
        // `proto`, without a `Proto.Sample` per row.
        switch item {
        case .samples(let rows):
            session.connection.send { buffer in
                rows.withUnsafeBufferPointer { Sample.appendPage(callID: callID, rows: $0, to: &buffer) }
            }
        case .anchoredPage(let page):
            session.connection.send { page.appendFrame(callID: callID, to: &$0) }
        default:
            let proto = item.proto
            session.connection.send { Proto.ServerFrame.appendFrame(callID: callID, status: nil, streamItem: proto, to: &$0) }
        }
        return true
    }

    /// `send(_:on:)` of a SamplePage of the store's rows, written in place by the generated row
    /// writer (`Sample.appendPage`): the bytes of the page of their `Sample.proto`.
    @discardableResult
    func send(page rows: [Sample], on context: CallContext) -> Bool {
        guard context.credit > 0, context.isLive, let session = context.session else { return false }
        guard session.connection.hasRoomForOutput else {
            parkPump(context)
            return false
        }
        context.credit -= 1
        let callID = context.callID
        session.connection.send { buffer in
            rows.withUnsafeBufferPointer { Sample.appendPage(callID: callID, rows: $0, to: &buffer) }
        }
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
        // The call is over: it no longer keeps its session alive (see `CallContext.session`).
        context.session = nil
    }
}
