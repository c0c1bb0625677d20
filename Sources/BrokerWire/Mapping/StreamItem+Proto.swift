package import BrokerModel

// StreamItem, the `item` oneof of a stream's frames, between the model and the .proto.
extension StreamItem {
    /// The item a decoded StreamItem holds; throws for one with no case this build knows (the client
    /// asked for the stream, so it must understand its items).
    package init(proto: Proto.StreamItem) throws(BrokerError) {
        switch proto.item {
        case .ping(let ping)?:
            self = .ping(PingResponse(proto: ping))
        case .samples(let page)?:
            self = .samples(try Sample.samples(proto: page.samples))
        case .anchoredPage(let page)?:
            self = .anchoredPage(try AnchoredPage(proto: page))
        case .observed(let event)?:
            self = .observed(type: ObjectType(protoIdentifier: event.type), changedMicros: event.changedMicros)
        case .promptEvent(let event)?:
            self = .promptEvent(try PromptEvent(proto: event))
        case nil:
            throw .invalidArgument("item: missing")
        }
    }

    /// The item as a .proto message.
    package var proto: Proto.StreamItem {
        var message = Proto.StreamItem()
        switch self {
        case .ping(let ping):
            message.item = .ping(ping.proto)
        case .promptEvent(let event):
            message.item = .promptEvent(event.proto)
        case .samples(let samples):
            var page = Proto.SamplePage()
            page.samples = Sample.proto(samples)
            message.item = .samples(page)
        case .anchoredPage(let page):
            message.item = .anchoredPage(page.proto)
        case .observed(let type, let changedMicros):
            var event = Proto.ObserveEvent()
            event.type = type.identifier
            event.changedMicros = changedMicros
            message.item = .observed(event)
        }
        return message
    }
}
