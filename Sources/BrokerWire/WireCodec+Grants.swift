import BrokerModel
import HealthBrokerProto

// Grants and what the operator sees of them on the admin socket: AdminListGrants, AdminRevoke,
// AdminListSources, AdminSetCharacteristic and AdminExplain, in both directions.
extension WireCodec {
    // MARK: Grants

    /// Runs `body` with C forms of `grants` (a repeated Grant field), valid only inside `body`.
    static func withCGrants<R>(
        _ grants: some Collection<Grant>,
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<Healthbroker__V1__Grant>?>, Int) -> R
    ) -> R {
        withCMessages(
            grants,
            textBytes: { CStringWriter.byteCount(of: $0.type.identifier) + CStringWriter.byteCount(of: $0.decidedBy) },
            initialize: healthbroker__v1__grant__init,
            fill: { grant, message, writer in
                let (read, limitedFromMicros) = cReadDecision(grant.read)
                message.pointee.type = writer.write(grant.type.identifier)
                message.pointee.share = cShareDecision(grant.share)
                message.pointee.read = read
                message.pointee.limited_from_us = limitedFromMicros
                message.pointee.decided_us = grant.decidedMicros
                message.pointee.decided_by = writer.write(grant.decidedBy)
            },
            body)
    }

    /// The Swift form of an unpacked Grant.
    static func grant(_ message: UnsafePointer<Healthbroker__V1__Grant>) -> Grant {
        Grant(
            type: objectType(message.pointee.type),
            share: shareDecision(message.pointee.share),
            read: readDecision(message.pointee.read, limitedFromMicros: message.pointee.limited_from_us),
            decidedMicros: message.pointee.decided_us,
            decidedBy: string(message.pointee.decided_by))
    }

    // MARK: AdminRevoke

    /// Runs `body` with the C form of an AdminRevoke request, valid only inside `body`.
    static func withCAdminRevokeRequest<R>(
        appID: String, types: [ObjectType], _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminRevokeRequest>) -> R
    ) -> R {
        withCText(
            textBytes: CStringWriter.byteCount(of: appID) + CStringWriter.byteCount(of: types),
            pointerCount: types.count
        ) { writer, pointers in
            var message = Healthbroker__V1__AdminRevokeRequest()
            healthbroker__v1__admin_revoke_request__init(&message)
            message.app_id = writer.write(appID)
            writer.write(types, to: pointers)
            message.n_types = types.count
            message.types = pointers
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked AdminRevoke request.
    static func adminRevokeRequest(
        _ message: UnsafePointer<Healthbroker__V1__AdminRevokeRequest>
    ) throws(BrokerError) -> Request {
        .adminRevoke(
            appID: string(message.pointee.app_id),
            types: try objectTypes(message.pointee.types, count: message.pointee.n_types, in: "ClientFrame"))
    }

    // MARK: Sources

    /// Runs `body` with C forms of `sources` (a repeated Source field), valid only inside `body`.
    static func withCSources<R>(
        _ sources: [Source], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<Healthbroker__V1__Source>?>, Int) -> R
    ) -> R {
        withCMessages(
            sources,
            textBytes: { CStringWriter.byteCount(of: $0.appID) + CStringWriter.byteCount(of: $0.appName) },
            initialize: healthbroker__v1__source__init,
            fill: { source, message, writer in
                message.pointee.app_id = writer.write(source.appID)
                message.pointee.app_name = writer.write(source.appName)
                message.pointee.first_request_us = source.firstRequestMicros
                message.pointee.last_request_us = source.lastRequestMicros
                message.pointee.registered = source.isRegistered ? 1 : 0
            },
            body)
    }

    /// The Swift form of an unpacked Source.
    static func source(_ message: UnsafePointer<Healthbroker__V1__Source>) -> Source {
        Source(
            appID: string(message.pointee.app_id),
            appName: string(message.pointee.app_name),
            firstRequestMicros: message.pointee.first_request_us,
            lastRequestMicros: message.pointee.last_request_us,
            isRegistered: message.pointee.registered != 0)
    }

    // MARK: AdminSetCharacteristic

    /// Runs `body` with the C form of an AdminSetCharacteristic request (a nil value clears it), valid
    /// only inside `body`.
    static func withCAdminSetCharacteristicRequest<R>(
        _ value: CharacteristicValue, _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminSetCharacteristicRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__AdminSetCharacteristicRequest()
        healthbroker__v1__admin_set_characteristic_request__init(&message)
        message.has_value = value.value == nil ? 0 : 1
        return value.type.identifier.withCString { identifier in
            (value.value ?? "").withCString { text in
                message.type = field(identifier)
                message.value = field(text)
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked AdminSetCharacteristic request; `has_value` false reads as no value.
    static func adminSetCharacteristicRequest(
        _ message: UnsafePointer<Healthbroker__V1__AdminSetCharacteristicRequest>
    ) -> CharacteristicValue {
        CharacteristicValue(
            type: objectType(message.pointee.type),
            value: message.pointee.has_value != 0 ? string(message.pointee.value) : nil)
    }

    // MARK: AdminExplain

    /// Runs `body` with the C form of an AdminExplain request, valid only inside `body`.
    static func withCAdminExplainRequest<R>(
        appID: String, type: ObjectType, _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminExplainRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__AdminExplainRequest()
        healthbroker__v1__admin_explain_request__init(&message)
        return appID.withCString { appID in
            type.identifier.withCString { identifier in
                message.app_id = field(appID)
                message.type = field(identifier)
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// Runs `body` with the C form of an AdminExplain response, valid only inside `body`.
    ///
    /// `ever_asked` is sent as "a grant is present". `effective_read_from_us` has no presence bit:
    /// nil travels as 0 (and 0 decodes as nil). The only instant lost that way is exactly the epoch,
    /// which a real read-from date never is.
    static func withCAdminExplainResponse<R>(
        _ explanation: Explanation, _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminExplainResponse>) -> R
    ) -> R {
        var message = Healthbroker__V1__AdminExplainResponse()
        healthbroker__v1__admin_explain_response__init(&message)
        message.earliest_permitted_us = explanation.earliestPermittedMicros
        message.effective_read_from_us = explanation.effectiveReadFromMicros ?? 0
        return explanation.text.withCString { text in
            message.explanation = field(text)
            guard let grant = explanation.grant else {
                return withUnsafeMutablePointer(to: &message, body)
            }
            return withCGrants(CollectionOfOne(grant)) { grants, _ in
                message.grant = grants[0]
                message.ever_asked = 1
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked AdminExplain response (see `withCAdminExplainResponse` for the
    /// mapping of `effective_read_from_us`).
    static func explanation(_ message: UnsafePointer<Healthbroker__V1__AdminExplainResponse>) -> Explanation {
        let effectiveReadFrom = message.pointee.effective_read_from_us
        return Explanation(
            grant: message.pointee.grant.map { grant(UnsafePointer($0)) },
            earliestPermittedMicros: message.pointee.earliest_permitted_us,
            effectiveReadFromMicros: effectiveReadFrom == 0 ? nil : effectiveReadFrom,
            text: string(message.pointee.explanation))
    }
}
