import BrokerModel
import BrokerWire

extension ServerFrame {
    /// The frame's stream item as the model reads it (nil for none, or one the model cannot take).
    var item: StreamItem? {
        guard case .streamItem(let proto)? = response else { return nil }
        return try? StreamItem(proto: proto)
    }
}
