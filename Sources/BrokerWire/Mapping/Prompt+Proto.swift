package import BrokerModel

// Consent prompts (Prompt, PromptEvent: the AdminWatchPrompts stream) between the model and the .proto.
extension Prompt {
    /// The prompt a decoded Prompt holds.
    package init(proto: Proto.Prompt) {
        self.init(
            id: proto.promptID, appID: proto.appID, appName: proto.appName, readUsage: proto.readUsage,
            shareUsage: proto.shareUsage, shareTypes: ObjectType.types(protoIdentifiers: proto.shareTypes),
            readTypes: ObjectType.types(protoIdentifiers: proto.readTypes), createdMicros: proto.createdMicros,
            deadlineMicros: proto.deadlineMicros)
    }

    /// The prompt as a .proto message.
    package var proto: Proto.Prompt {
        var message = Proto.Prompt()
        message.promptID = id
        message.appID = appID
        message.appName = appName
        message.readUsage = readUsage
        message.shareUsage = shareUsage
        message.shareTypes = ObjectType.protoIdentifiers(shareTypes)
        message.readTypes = ObjectType.protoIdentifiers(readTypes)
        message.createdMicros = createdMicros
        message.deadlineMicros = deadlineMicros
        return message
    }
}

extension PromptEvent {
    /// The event a decoded PromptEvent holds; throws for one with no case this build knows.
    ///
    /// A resolution number this build does not know (or RESOLUTION_UNSPECIFIED) reads as
    /// `.withdrawn`: either way the prompt is over and an agent should stop showing it.
    package init(proto: Proto.PromptEvent) throws(BrokerError) {
        switch proto.event {
        case .raised(let prompt)?:
            self = .raised(Prompt(proto: prompt))
        case .resolved(let resolved)?:
            self = .resolved(
                promptID: resolved.promptID,
                resolution: PromptResolution(rawValue: resolved.resolution.rawValue) ?? .withdrawn)
        case nil:
            throw .invalidArgument("event: missing")
        }
    }

    /// The event as a .proto message.
    package var proto: Proto.PromptEvent {
        var message = Proto.PromptEvent()
        switch self {
        case .raised(let prompt):
            message.event = .raised(prompt.proto)
        case .resolved(let promptID, let resolution):
            var resolved = Proto.PromptResolved()
            resolved.promptID = promptID
            resolved.resolution = Proto.PromptResolution(rawValue: resolution.rawValue)
            message.event = .resolved(resolved)
        }
        return message
    }
}
