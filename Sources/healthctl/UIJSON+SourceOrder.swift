import BrokerModel
import BrokerPolicy

extension UIJSON {
    /// One source of a type as the page lists it.
    struct SourceEntry: Codable, Equatable {
        var appID: String
        var name: String
    }

    /// A type with data from two or more sources, its sources in the order statistics use them.
    struct SourceOrder: Codable, Equatable {
        var type: TypeInfo
        /// True when the person set an order; false: the default (by app id).
        var custom: Bool
        /// Best first: the sources in the person's order, then the others by app id, exactly as the
        /// broker ranks them when it merges (`SourceMerge.ranks`).
        var sources: [SourceEntry]

        /// Orders `sources` (the apps with samples of `type`) by `priority` (the order the broker holds).
        init(type: ObjectType, priority: [String], sources: [SourceEntry]) {
            self.type = TypeInfo(type)
            let ranks = SourceMerge.ranks(priority: priority, sources: sources.map(\.appID))
            custom = !priority.isEmpty
            self.sources = sources.sorted { (ranks[$0.appID] ?? .max) < (ranks[$1.appID] ?? .max) }
        }
    }

    /// The Data types page's source orders.
    struct SourcesReply: Codable {
        var orders: [SourceOrder]
    }
}
