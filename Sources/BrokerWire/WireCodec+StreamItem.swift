import BrokerModel
import HealthBrokerProto

// StreamItem, the `item` oneof of a stream's frames, in both directions; and its ObserveEvent and
// SamplePage cases.
extension WireCodec {
    /// Runs `body` with the C form of `item`, valid only inside `body`.
    static func withCStreamItem<R>(
        _ item: StreamItem, _ body: (UnsafeMutablePointer<Healthbroker__V1__StreamItem>) -> R
    ) -> R {
        var message = Healthbroker__V1__StreamItem()
        healthbroker__v1__stream_item__init(&message)
        switch item {
        case .ping(let ping):
            return withCPingResponse(ping) { ping in
                message.item_case = HEALTHBROKER__V1__STREAM_ITEM__ITEM_PING
                message.ping = ping
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .promptEvent(let event):
            return withCPromptEvent(event) { event in
                message.item_case = HEALTHBROKER__V1__STREAM_ITEM__ITEM_PROMPT_EVENT
                message.prompt_event = event
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .samples(let samples):
            return withCSamples(samples) { list, count in
                var page = Healthbroker__V1__SamplePage()
                healthbroker__v1__sample_page__init(&page)
                page.n_samples = count
                page.samples = list
                return withUnsafeMutablePointer(to: &page) { page in
                    message.item_case = HEALTHBROKER__V1__STREAM_ITEM__ITEM_SAMPLES
                    message.samples = page
                    return withUnsafeMutablePointer(to: &message, body)
                }
            }
        case .anchoredPage(let page):
            return withCAnchoredPage(page) { page in
                message.item_case = HEALTHBROKER__V1__STREAM_ITEM__ITEM_ANCHORED_PAGE
                message.anchored_page = page
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .observed(let type, let changedMicros):
            var event = Healthbroker__V1__ObserveEvent()
            healthbroker__v1__observe_event__init(&event)
            event.changed_us = changedMicros
            return type.identifier.withCString { identifier in
                event.type = field(identifier)
                return withUnsafeMutablePointer(to: &event) { event in
                    message.item_case = HEALTHBROKER__V1__STREAM_ITEM__ITEM_OBSERVED
                    message.observed = event
                    return withUnsafeMutablePointer(to: &message, body)
                }
            }
        }
    }

    /// The Swift form of an unpacked StreamItem.
    ///
    /// An item with no case this build knows is undecodable: the client asked for the stream, so it
    /// must understand its items.
    static func streamItem(_ item: UnsafePointer<Healthbroker__V1__StreamItem>) throws(BrokerError) -> StreamItem {
        switch item.pointee.item_case {
        case HEALTHBROKER__V1__STREAM_ITEM__ITEM_PING:
            return .ping(pingResponse(try present(item.pointee.ping, in: "ServerFrame")))
        case HEALTHBROKER__V1__STREAM_ITEM__ITEM_PROMPT_EVENT:
            return .promptEvent(try promptEvent(try present(item.pointee.prompt_event, in: "ServerFrame")))
        case HEALTHBROKER__V1__STREAM_ITEM__ITEM_SAMPLES:
            let page = try present(item.pointee.samples, in: "ServerFrame")
            return .samples(try samples(page.pointee.samples, count: page.pointee.n_samples, in: "ServerFrame"))
        case HEALTHBROKER__V1__STREAM_ITEM__ITEM_ANCHORED_PAGE:
            return .anchoredPage(try anchoredPage(try present(item.pointee.anchored_page, in: "ServerFrame")))
        case HEALTHBROKER__V1__STREAM_ITEM__ITEM_OBSERVED:
            let event = try present(item.pointee.observed, in: "ServerFrame")
            return .observed(type: objectType(event.pointee.type), changedMicros: event.pointee.changed_us)
        default:
            throw undecodable("ServerFrame")
        }
    }
}
