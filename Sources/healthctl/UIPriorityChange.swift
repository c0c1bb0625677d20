import BrokerModel

/// A source order as the page sends it: `{"type": "stepCount", "apps": ["com.phone", "com.watch"]}`
/// (best first), or `{"type": "stepCount", "reset": true}` for the default order.
struct UIPriorityChange: Decodable, Sendable {
    /// Identifier or alias.
    var type: String
    /// The sources shown, best first.
    var apps: [String]?
    /// Clears the order (every source then ranks by app id).
    var reset: Bool?

    /// Why an order from the page cannot be used; the message is shown to the person.
    struct Invalid: Error, Equatable {
        var message: String
    }

    /// The type and the order to store, given the order the broker holds now (`previous`): the
    /// shown sources first, then any earlier-listed app not shown (no samples of the type now), so
    /// a change on the page never drops an order set for an app whose data comes later. Reset: [].
    func order(previous: [String]) throws(Invalid) -> (type: ObjectType, appIDs: [String]) {
        guard let objectType = TypeArgument.lookUp(type) else { throw Invalid(message: "unknown type \(type)") }
        if reset == true {
            guard apps?.isEmpty ?? true else { throw Invalid(message: "a reset takes no apps") }
            return (objectType, [])
        }
        guard let apps, !apps.isEmpty else { throw Invalid(message: "give the sources in order, or reset") }
        var seen = Set<String>()
        for app in apps where app.isEmpty || !seen.insert(app).inserted {
            throw Invalid(message: app.isEmpty ? "an app id is empty" : "\(app) is listed twice")
        }
        return (objectType, apps + previous.filter { !seen.contains($0) })
    }
}
