import BrokerModel
import Foundation
@testable import healthctl
import Testing

@Suite struct TextOutputTests {
    @Test func emptyRegistrySaysHowToAddAnApp() {
        #expect(TextOutput.appTable([]) == "no apps registered (add one with 'healthctl apps add APP_ID --name NAME')")
    }

    @Test func appTableShowsEveryAppWithDashesForMissingValues() {
        let lines = TextOutput.appTable([Samples.pinnedApp, Samples.plainApp]).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("APP ID"))
        #expect(lines[0].hasSuffix("CREATED (UTC)"))
        #expect(lines[1].split(separator: " ", omittingEmptySubsequences: true).first == "com.example.steps")
        #expect(lines[1].contains("1000"))
        #expect(lines[1].hasSuffix("2025-06-01T10:00:00Z"))
        let bare = lines[2].split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        #expect(bare == ["b", "Bare", "-", "-", "-", "2025-06-01T10:00:00Z"])
    }

    @Test func appTableClipsLongUsageTexts() {
        var app = Samples.plainApp
        app.readUsage = String(repeating: "x", count: 100)
        let table = TextOutput.appTable([app])
        #expect(table.contains(String(repeating: "x", count: TextOutput.usageColumnWidth - 1) + "…"))
        #expect(!table.contains(String(repeating: "x", count: TextOutput.usageColumnWidth)))
    }

    @Test func appTableColumnsLineUp() {
        let lines = TextOutput.appTable([Samples.pinnedApp, Samples.plainApp]).split(separator: "\n").map(String.init)
        let nameColumn = lines[0].range(of: "NAME")!.lowerBound
        let offset = lines[0].distance(from: lines[0].startIndex, to: nameColumn)
        for line in lines.dropFirst() {
            let character = line[line.index(line.startIndex, offsetBy: offset)]
            #expect(character != " ")
            #expect(line[line.index(line.startIndex, offsetBy: offset - 1)] == " ")
        }
    }

    @Test func credentialsShowTheTokenOnceWithTheWarning() {
        let text = TextOutput.credentials(AppCredentials(app: Samples.plainApp, token: "hbt_secret"), event: .registered)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "registered b")
        #expect(lines.contains("token: hbt_secret"))
        #expect(lines.last == TextOutput.tokenWarning)
        #expect(lines.contains { $0.hasPrefix("  uid") && $0.hasSuffix("any") })
        #expect(lines.contains { $0.hasPrefix("  read usage") && $0.hasSuffix("-") })
    }

    @Test func rotatedCredentialsSayTheOldTokenIsDead() {
        let text = TextOutput.credentials(AppCredentials(app: Samples.pinnedApp, token: "t"), event: .rotated)
        #expect(text.hasPrefix("new token for com.example.steps (the old token no longer opens sessions)"))
        #expect(text.contains("1000"))
    }

    @Test func removalCountsConnections() {
        #expect(TextOutput.removal(appID: "a", connectionsClosed: 1) == "removed a (1 connection closed)")
        #expect(TextOutput.removal(appID: "a", connectionsClosed: 0) == "removed a (0 connections closed)")
        #expect(TextOutput.removal(appID: "a", connectionsClosed: 3) == "removed a (3 connections closed)")
    }

    @Test func statusShowsUptimeAndConnections() {
        let text = TextOutput.status(Samples.info)
        #expect(text == """
            broker version  0.3.0
            started         2025-06-01T10:00:00Z
            uptime          1h 2m 5s
            connections     3 (2 app, 1 admin)
            calls served    42
            consent agents  0
            open prompts    0
            data directory  /var/lib/healthbroker
            durability      killed process (--synchronous-full adds power loss)
            """)
        var durable = Samples.info
        durable.powerLossDurable = true
        durable.walFsyncs = 7
        #expect(TextOutput.status(durable).hasSuffix("durability      power loss (results wait for a WAL fsync; 7 so far)"))
        var consenting = Samples.info
        consenting.consentAgents = 2
        consenting.openPrompts = 5
        let lines = TextOutput.status(consenting).split(separator: "\n")
        #expect(lines.contains("consent agents  2"))
        #expect(lines.contains("open prompts    5"))
    }

    @Test func statusListsTheOpenPromptsWithUntilWhenTheAppsWait() {
        var info = Samples.info
        info.consentAgents = 0
        info.openPrompts = 2
        let deadline = Samples.june1 + 600 * Samples.second
        info.prompts = [
            Samples.prompt(id: 7, deadline: deadline),
            Samples.prompt(id: 9, share: [], read: [.heartRate]),
        ]
        let now = Samples.june1 + 180 * Samples.second
        let lines = TextOutput.status(info, now: now).split(separator: "\n").map(String.init)
        #expect(lines.suffix(2) == [
            "  prompt 7: com.example.steps (Steps) asks to share bodyMass and read stepCount, heartRate; waiting 3 min, answer by \(LocalTime.clockString(micros: deadline)) (7 min left)",
            "  prompt 9: com.example.steps (Steps) asks to read heartRate; waiting 3 min, no time limit",
        ])
        #expect(TextOutput.status(Samples.info).split(separator: "\n").last?.hasPrefix("durability") == true, "no prompt, no prompt line")
    }
}
