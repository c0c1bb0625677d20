/// The JSON answer to `revoke`: the app, the types named (empty: all) and how many grants went.
struct RevocationJSON: Encodable, Equatable {
    /// The app whose grants were revoked.
    var appID: String
    /// The identifiers named on the command line; empty when every type was revoked.
    var types: [String]
    /// How many grants the broker forgot.
    var revoked: UInt32

    /// The JSON keys, snake_case.
    private enum CodingKeys: String, CodingKey {
        case appID = "app_id", types, revoked
    }
}
