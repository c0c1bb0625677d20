import BrokerModel
import Foundation

/// The `--json` output of each command: pretty-printed, keys sorted, slashes unescaped.
enum JSONOutput {
    /// The app list as an array of objects (`[]` when empty).
    static func apps(_ apps: [AppInfo]) -> String {
        apps.isEmpty ? "[]" : encode(apps.map { AppJSON($0) })
    }

    /// An app's fields plus `"token"`.
    static func credentials(_ credentials: AppCredentials) -> String {
        encode(AppJSON(credentials.app, token: credentials.token))
    }

    /// `{"app_id": …, "connections_closed": N}`.
    static func removal(appID: String, connectionsClosed: UInt32) -> String {
        encode(RemovalJSON(appID: appID, connectionsClosed: connectionsClosed))
    }

    /// The broker's status as one object.
    static func status(_ info: BrokerInfo) -> String {
        encode(StatusJSON(info))
    }

    /// `value` as JSON text.
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // Only strings, integers and nulls go in: encoding cannot fail.
            preconditionFailure("cannot encode \(type(of: value)) as JSON: \(error)")
        }
    }
}
