import BrokerModel
import Foundation
@testable import healthctl
import Testing

@Suite struct JSONOutputTests {
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func array(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    static let appKeys: Set<String> = [
        "app_id", "name", "read_usage", "share_usage", "uid", "created", "created_us", "token_rotated", "token_rotated_us",
    ]

    @Test func appsHaveEveryKeyAndNoToken() throws {
        let apps = try Self.array(JSONOutput.apps([Samples.pinnedApp, Samples.plainApp]))
        #expect(apps.count == 2)
        #expect(Set(apps[0].keys) == Self.appKeys)
        #expect(apps[0]["uid"] as? Int == 1000)
        #expect(apps[0]["created"] as? String == "2025-06-01T10:00:00.000000Z")
        #expect((apps[0]["created_us"] as? NSNumber)?.int64Value == Samples.june1)
    }

    @Test func unpinnedUIDIsNull() throws {
        let app = try Self.array(JSONOutput.apps([Samples.plainApp]))[0]
        #expect(Set(app.keys) == Self.appKeys)
        #expect(app["uid"] is NSNull)
        #expect(JSONOutput.apps([Samples.plainApp]).contains("\"uid\" : null"))
    }

    @Test func emptyAppListIsAnEmptyArray() {
        #expect(JSONOutput.apps([]) == "[]")
    }

    @Test func credentialsAddTheToken() throws {
        let object = try Self.object(JSONOutput.credentials(AppCredentials(app: Samples.plainApp, token: "hbt_x")))
        #expect(Set(object.keys) == Self.appKeys.union(["token"]))
        #expect(object["token"] as? String == "hbt_x")
    }

    @Test func keysAreSortedAndSlashesUnescaped() {
        let text = JSONOutput.status(Samples.info)
        #expect(text.contains("/var/lib/healthbroker"))
        let keys = text.split(separator: "\n").compactMap { line -> String? in
            guard let quote = line.firstIndex(of: "\""), let colon = line.range(of: "\" :") else { return nil }
            return String(line[line.index(after: quote)..<colon.lowerBound])
        }
        #expect(keys == keys.sorted())
    }

    @Test func statusHasEveryKey() throws {
        let object = try Self.object(JSONOutput.status(Samples.info))
        #expect(Set(object.keys) == [
            "broker_version", "started", "started_us", "broker_time", "broker_time_us", "uptime_us",
            "app_connections", "admin_connections", "calls_served", "data_directory",
            "power_loss_durable", "wal_fsyncs", "consent_agents", "open_prompts", "prompts",
        ])
        #expect((object["prompts"] as? [Any])?.isEmpty == true)
        #expect(object["consent_agents"] as? Int == 0)
        var consenting = Samples.info
        consenting.consentAgents = 2
        consenting.openPrompts = 5
        let counted = try Self.object(JSONOutput.status(consenting))
        #expect(counted["consent_agents"] as? Int == 2)
        #expect(counted["open_prompts"] as? Int == 5)
        var asking = Samples.info
        asking.prompts = [Samples.prompt(id: 7, deadline: Samples.june1 + 60 * Samples.second)]
        let prompts = try #require(try Self.object(JSONOutput.status(asking))["prompts"] as? [[String: Any]])
        #expect(prompts.count == 1)
        #expect(Set(prompts[0].keys) == ["prompt_id", "app_id", "app_name", "share_types", "read_types", "created", "created_us", "deadline", "deadline_us"])
        #expect(prompts[0]["deadline"] as? String == "2025-06-01T10:01:00.000000Z")
        #expect(prompts[0]["share_types"] as? [String] == ["HKQuantityTypeIdentifierBodyMass"])
        #expect(object["power_loss_durable"] as? Bool == false)
        #expect((object["uptime_us"] as? NSNumber)?.int64Value == 3_725 * Samples.second)
    }

    @Test func removalHasTwoKeys() throws {
        let object = try Self.object(JSONOutput.removal(appID: "a", connectionsClosed: 2))
        #expect(Set(object.keys) == ["app_id", "connections_closed"])
        #expect(object["connections_closed"] as? Int == 2)
    }
}
