import BrokerModel
import HealthBrokerProto

// Consent on the admin socket: share and read decisions, TypeDecision lists (AdminAnswerPrompt),
// Prompt and PromptEvent (the AdminWatchPrompts stream), in both directions.
extension WireCodec {
    // MARK: Decisions

    /// The wire form of a share decision; nil is SHARE_UNDECIDED.
    @inline(__always)
    static func cShareDecision(_ decision: ShareDecision?) -> Healthbroker__V1__ShareDecision {
        Healthbroker__V1__ShareDecision(rawValue: .init(truncatingIfNeeded: decision?.rawValue ?? 0))
    }

    /// A decoded share decision; SHARE_UNDECIDED and numbers this build does not know are nil.
    @inline(__always)
    static func shareDecision(_ decision: Healthbroker__V1__ShareDecision) -> ShareDecision? {
        ShareDecision(rawValue: wireInt32(decision.rawValue))
    }

    /// The wire form of a read decision and its `limited_from_us` (0 unless limited); nil is READ_UNDECIDED.
    @inline(__always)
    static func cReadDecision(_ decision: ReadDecision?) -> (Healthbroker__V1__ReadDecision, limitedFromMicros: Int64) {
        switch decision {
        case nil: (HEALTHBROKER__V1__READ_DECISION__READ_UNDECIDED, 0)
        case .deny: (HEALTHBROKER__V1__READ_DECISION__READ_DENY, 0)
        case .full: (HEALTHBROKER__V1__READ_DECISION__READ_FULL, 0)
        case .limited(let fromMicros): (HEALTHBROKER__V1__READ_DECISION__READ_LIMITED, fromMicros)
        }
    }

    /// A decoded read decision (`limitedFromMicros` counts only for READ_LIMITED); READ_UNDECIDED and
    /// numbers this build does not know are nil.
    @inline(__always)
    static func readDecision(_ decision: Healthbroker__V1__ReadDecision, limitedFromMicros: Int64) -> ReadDecision? {
        switch decision {
        case HEALTHBROKER__V1__READ_DECISION__READ_DENY: .deny
        case HEALTHBROKER__V1__READ_DECISION__READ_FULL: .full
        case HEALTHBROKER__V1__READ_DECISION__READ_LIMITED: .limited(fromMicros: limitedFromMicros)
        default: nil
        }
    }

    // MARK: AdminAnswerPrompt

    /// Runs `body` with the C form of an AdminAnswerPrompt request, valid only inside `body`.
    static func withCAdminAnswerPromptRequest<R>(
        promptID: UInt64, decisions: [TypeDecision],
        _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminAnswerPromptRequest>) -> R
    ) -> R {
        withCMessages(
            decisions,
            textBytes: { CStringWriter.byteCount(of: $0.type.identifier) },
            initialize: healthbroker__v1__type_decision__init,
            fill: { decision, message, writer in
                let (read, limitedFromMicros) = cReadDecision(decision.read)
                message.pointee.type = writer.write(decision.type.identifier)
                message.pointee.share = cShareDecision(decision.share)
                message.pointee.read = read
                message.pointee.limited_from_us = limitedFromMicros
            }
        ) { decisions, count in
            var message = Healthbroker__V1__AdminAnswerPromptRequest()
            healthbroker__v1__admin_answer_prompt_request__init(&message)
            message.prompt_id = promptID
            message.n_decisions = count
            message.decisions = decisions
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked AdminAnswerPrompt request.
    static func adminAnswerPromptRequest(
        _ message: UnsafePointer<Healthbroker__V1__AdminAnswerPromptRequest>
    ) throws(BrokerError) -> Request {
        let decisions = try decodedList(message.pointee.decisions, count: message.pointee.n_decisions, in: "ClientFrame") {
            decision in
            TypeDecision(
                type: objectType(decision.pointee.type),
                share: shareDecision(decision.pointee.share),
                read: readDecision(decision.pointee.read, limitedFromMicros: decision.pointee.limited_from_us))
        }
        return .adminAnswerPrompt(promptID: message.pointee.prompt_id, decisions: decisions)
    }

    // MARK: Prompts

    /// Runs `body` with the C form of `prompt`, valid only inside `body`.
    ///
    /// Its four strings and both type lists share one scoped text buffer and one pointer array.
    static func withCPrompt<R>(_ prompt: Prompt, _ body: (UnsafeMutablePointer<Healthbroker__V1__Prompt>) -> R) -> R {
        let textBytes = CStringWriter.byteCount(of: prompt.appID) + CStringWriter.byteCount(of: prompt.appName)
            + CStringWriter.byteCount(of: prompt.readUsage) + CStringWriter.byteCount(of: prompt.shareUsage)
            + CStringWriter.byteCount(of: prompt.shareTypes) + CStringWriter.byteCount(of: prompt.readTypes)
        let shareCount = prompt.shareTypes.count
        return withCText(textBytes: textBytes, pointerCount: shareCount + prompt.readTypes.count) { writer, pointers in
            var message = Healthbroker__V1__Prompt()
            healthbroker__v1__prompt__init(&message)
            message.prompt_id = prompt.id
            message.app_id = writer.write(prompt.appID)
            message.app_name = writer.write(prompt.appName)
            message.read_usage = writer.write(prompt.readUsage)
            message.share_usage = writer.write(prompt.shareUsage)
            writer.write(prompt.shareTypes, to: pointers)
            writer.write(prompt.readTypes, to: pointers + shareCount)
            message.n_share_types = shareCount
            message.share_types = pointers
            message.n_read_types = prompt.readTypes.count
            message.read_types = pointers + shareCount
            message.created_us = prompt.createdMicros
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked Prompt.
    static func prompt(_ message: UnsafePointer<Healthbroker__V1__Prompt>) throws(BrokerError) -> Prompt {
        Prompt(
            id: message.pointee.prompt_id,
            appID: string(message.pointee.app_id),
            appName: string(message.pointee.app_name),
            readUsage: string(message.pointee.read_usage),
            shareUsage: string(message.pointee.share_usage),
            shareTypes: try objectTypes(message.pointee.share_types, count: message.pointee.n_share_types, in: "ServerFrame"),
            readTypes: try objectTypes(message.pointee.read_types, count: message.pointee.n_read_types, in: "ServerFrame"),
            createdMicros: message.pointee.created_us)
    }

    /// Runs `body` with the C form of `event`, valid only inside `body`.
    static func withCPromptEvent<R>(
        _ event: PromptEvent, _ body: (UnsafeMutablePointer<Healthbroker__V1__PromptEvent>) -> R
    ) -> R {
        var message = Healthbroker__V1__PromptEvent()
        healthbroker__v1__prompt_event__init(&message)
        switch event {
        case .raised(let prompt):
            return withCPrompt(prompt) { prompt in
                message.event_case = HEALTHBROKER__V1__PROMPT_EVENT__EVENT_RAISED
                message.raised = prompt
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .resolved(let promptID, let resolution):
            var resolved = Healthbroker__V1__PromptResolved()
            healthbroker__v1__prompt_resolved__init(&resolved)
            resolved.prompt_id = promptID
            resolved.resolution = Healthbroker__V1__PromptResolution(rawValue: .init(truncatingIfNeeded: resolution.rawValue))
            return withUnsafeMutablePointer(to: &resolved) { resolved in
                message.event_case = HEALTHBROKER__V1__PROMPT_EVENT__EVENT_RESOLVED
                message.resolved = resolved
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked PromptEvent; an event with no case this build knows is undecodable.
    ///
    /// A resolution number this build does not know (or RESOLUTION_UNSPECIFIED) reads as `.withdrawn`:
    /// either way the prompt is over and an agent should stop showing it.
    static func promptEvent(_ message: UnsafePointer<Healthbroker__V1__PromptEvent>) throws(BrokerError) -> PromptEvent {
        switch message.pointee.event_case {
        case HEALTHBROKER__V1__PROMPT_EVENT__EVENT_RAISED:
            return .raised(try prompt(try present(message.pointee.raised, in: "ServerFrame")))
        case HEALTHBROKER__V1__PROMPT_EVENT__EVENT_RESOLVED:
            let resolved = try present(message.pointee.resolved, in: "ServerFrame")
            return .resolved(
                promptID: resolved.pointee.prompt_id,
                resolution: PromptResolution(rawValue: wireInt32(resolved.pointee.resolution.rawValue)) ?? .withdrawn)
        default:
            throw undecodable("ServerFrame")
        }
    }
}
