public import BrokerModel

// Consent records on the admin socket (Grant, TypeDecision and their decisions, AdminSetGrant, Source,
// CharacteristicValue, Explanation) between the model and the .proto.
extension Grant {
    /// The grant a decoded Grant holds.
    package init(proto: Proto.Grant) {
        self.init(
            type: ObjectType(protoIdentifier: proto.type),
            share: ShareDecision(proto: proto.share),
            read: ReadDecision(proto: proto.read, limitedFromMicros: proto.limitedFromMicros),
            decidedMicros: proto.decidedMicros,
            decidedBy: proto.decidedBy)
    }

    /// The grant as a .proto message.
    package var proto: Proto.Grant {
        var message = Proto.Grant()
        message.type = type.identifier
        message.share = ShareDecision.proto(share)
        (message.read, message.limitedFromMicros) = ReadDecision.proto(read)
        message.decidedMicros = decidedMicros
        message.decidedBy = decidedBy
        return message
    }
}

extension TypeDecision {
    /// The decision a decoded TypeDecision holds.
    public init(proto: Proto.TypeDecision) {
        self.init(
            type: ObjectType(protoIdentifier: proto.type),
            share: ShareDecision(proto: proto.share),
            read: ReadDecision(proto: proto.read, limitedFromMicros: proto.limitedFromMicros))
    }

    /// The decision as a .proto message.
    package var proto: Proto.TypeDecision {
        var message = Proto.TypeDecision()
        message.type = type.identifier
        message.share = ShareDecision.proto(share)
        (message.read, message.limitedFromMicros) = ReadDecision.proto(read)
        return message
    }

    /// The decision an AdminSetGrantRequest sets (its app id travels beside it).
    public init(proto: Proto.AdminSetGrantRequest) {
        self.init(
            type: ObjectType(protoIdentifier: proto.type),
            share: ShareDecision(proto: proto.share),
            read: ReadDecision(proto: proto.read, limitedFromMicros: proto.limitedFromMicros))
    }

    /// The decision as an AdminSetGrantRequest for `appID`.
    package func setGrantRequestProto(appID: String) -> Proto.AdminSetGrantRequest {
        var message = Proto.AdminSetGrantRequest()
        message.appID = appID
        message.type = type.identifier
        message.share = ShareDecision.proto(share)
        (message.read, message.limitedFromMicros) = ReadDecision.proto(read)
        return message
    }
}

extension ShareDecision {
    /// A decoded share decision; SHARE_UNDECIDED and numbers this build does not know are nil.
    init?(proto: Proto.ShareDecision) {
        self.init(rawValue: proto.rawValue)
    }

    /// The wire form of a share decision; nil is SHARE_UNDECIDED.
    package static func proto(_ decision: ShareDecision?) -> Proto.ShareDecision {
        Proto.ShareDecision(rawValue: decision?.rawValue ?? 0)
    }
}

extension ReadDecision {
    /// A decoded read decision (`limitedFromMicros` counts only for READ_LIMITED); READ_UNDECIDED
    /// and numbers this build does not know are nil.
    init?(proto: Proto.ReadDecision, limitedFromMicros: Int64) {
        switch proto {
        case .readDeny: self = .deny
        case .readFull: self = .full
        case .readLimited: self = .limited(fromMicros: limitedFromMicros)
        default: return nil
        }
    }

    /// The wire form of a read decision and its `limited_from_us` (0 unless limited); nil is
    /// READ_UNDECIDED.
    package static func proto(_ decision: ReadDecision?) -> (Proto.ReadDecision, limitedFromMicros: Int64) {
        switch decision {
        case nil: (.readUndecided, 0)
        case .deny: (.readDeny, 0)
        case .full: (.readFull, 0)
        case .limited(let fromMicros): (.readLimited, fromMicros)
        }
    }
}

extension Source {
    /// The source a decoded Source describes.
    package init(proto: Proto.Source) {
        self.init(
            appID: proto.appID, appName: proto.appName, firstRequestMicros: proto.firstRequestMicros,
            lastRequestMicros: proto.lastRequestMicros, isRegistered: proto.registered,
            sampleCount: proto.sampleCount, everAsked: proto.everAsked,
            sampleCounts: Dictionary(proto.types.map { (ObjectType(protoIdentifier: $0.type), $0.sampleCount) }, uniquingKeysWith: +))
    }

    /// The source as a .proto message.
    package var proto: Proto.Source {
        var message = Proto.Source()
        message.appID = appID
        message.appName = appName
        message.firstRequestMicros = firstRequestMicros
        message.lastRequestMicros = lastRequestMicros
        message.registered = isRegistered
        message.sampleCount = sampleCount
        message.everAsked = everAsked
        // By identifier, so the bytes do not depend on the dictionary's order.
        message.types = sampleCounts.map { type, count in
            var entry = Proto.SourceTypeCount()
            entry.type = type.identifier
            entry.sampleCount = count
            return entry
        }.sorted { $0.type.utf8.lexicographicallyPrecedes($1.type.utf8) }
        return message
    }
}

extension CharacteristicValue {
    /// The value a decoded CharacteristicValue holds; `has_value` false reads as no value.
    package init(proto: Proto.CharacteristicValue) {
        self.init(type: ObjectType(protoIdentifier: proto.type), value: proto.hasValue ? proto.value : nil)
    }

    /// The value as a .proto message: nil is `has_value` false (and "").
    package var proto: Proto.CharacteristicValue {
        var message = Proto.CharacteristicValue()
        message.type = type.identifier
        message.hasValue = value != nil
        message.value = value ?? ""
        return message
    }

    /// The value an AdminSetCharacteristicRequest sets.
    public init(proto: Proto.AdminSetCharacteristicRequest) {
        self.init(type: ObjectType(protoIdentifier: proto.type), value: proto.hasValue ? proto.value : nil)
    }

    /// The value as an AdminSetCharacteristicRequest.
    package var setRequestProto: Proto.AdminSetCharacteristicRequest {
        var message = Proto.AdminSetCharacteristicRequest()
        message.type = type.identifier
        message.hasValue = value != nil
        message.value = value ?? ""
        return message
    }
}

extension Explanation {
    /// The explanation a decoded AdminExplainResponse holds; an effective read date of 0 is nil.
    package init(proto: Proto.AdminExplainResponse) {
        self.init(
            grant: proto.grant.map { Grant(proto: $0) },
            earliestPermittedMicros: proto.earliestPermittedMicros,
            effectiveReadFromMicros: proto.effectiveReadFromMicros == 0 ? nil : proto.effectiveReadFromMicros,
            text: proto.explanation)
    }

    /// The explanation as a .proto message; `ever_asked` is set exactly when there is a grant.
    package var proto: Proto.AdminExplainResponse {
        var message = Proto.AdminExplainResponse()
        message.grant = grant?.proto
        message.everAsked = grant != nil
        message.earliestPermittedMicros = earliestPermittedMicros
        message.effectiveReadFromMicros = effectiveReadFromMicros ?? 0
        message.explanation = text
        return message
    }
}
