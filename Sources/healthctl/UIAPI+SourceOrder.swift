import BrokerModel
import HealthBrokerClient

extension UIAPI {
    /// Every cumulative quantity type with samples from two or more sources, each with its sources
    /// in the order the broker merges them. Which apps have samples of a type comes from one
    /// AdminListSources (its per-type counts); the order is asked only for the types listed.
    func sourceOrders() async throws(BrokerError) -> UIJSON.SourcesReply {
        let sources = try await link.call { admin throws(BrokerError) in try await admin.sources() }
        var orders: [UIJSON.SourceOrder] = []
        for descriptor in TypeCatalogue.all where descriptor.kind == .quantity && descriptor.aggregation == .cumulative {
            let type = descriptor.type
            let present = sources.filter { $0.sampleCounts[type, default: 0] > 0 }
                .map { UIJSON.SourceEntry(appID: $0.appID, name: $0.appName) }
            guard present.count >= 2 else { continue }
            let priority = try await link.call { admin throws(BrokerError) in try await admin.sourcePriority(for: type) }
            orders.append(UIJSON.SourceOrder(type: type, priority: priority, sources: present))
        }
        return UIJSON.SourcesReply(orders: orders)
    }

    /// Stores the order the page sent (or clears it) and answers with the type's order as now held.
    func setSourceOrder(_ change: UIPriorityChange) async throws(BrokerError) -> Reply {
        guard let type = TypeArgument.lookUp(change.type) else { return .error(400, "unknown type \(change.type)") }
        let previous = try await link.call { admin throws(BrokerError) in try await admin.sourcePriority(for: type) }
        let order: (type: ObjectType, appIDs: [String])
        do {
            order = try change.order(previous: previous)
        } catch {
            return .error(400, error.message)
        }
        let held = try await link.call { admin throws(BrokerError) in
            try await admin.setSourcePriority(order.appIDs, for: order.type)
            return try await admin.sourcePriority(for: order.type)
        }
        onChange()
        return .ok(held)
    }
}
