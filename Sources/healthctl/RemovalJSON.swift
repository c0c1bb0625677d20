/// The JSON answer to `apps remove`: which app went and how many of its connections were closed.
struct RemovalJSON: Encodable, Equatable {
    /// The removed app.
    var appID: String
    /// How many of its connections the broker closed.
    var connectionsClosed: UInt32

    /// The JSON keys, snake_case.
    private enum CodingKeys: String, CodingKey {
        case appID = "app_id", connectionsClosed = "connections_closed"
    }
}
