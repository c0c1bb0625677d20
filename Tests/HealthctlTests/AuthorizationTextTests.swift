import BrokerModel
import Foundation
@testable import healthctl
import Testing

@Suite struct AuthorizationTextTests {
    static let newYear = UTCTimestamp.micros(fromDate: "2026-01-01")!
    static let grants = [
        Grant(type: .heartRate, read: .full, decidedMicros: Samples.june1, decidedBy: "policy"),
        Grant(type: .stepCount, share: .allow, read: .limited(fromMicros: newYear), decidedMicros: Samples.june1 + Samples.second, decidedBy: "agent"),
        Grant(type: .bodyMass, share: .deny, decidedMicros: Samples.june1, decidedBy: "agent"),
    ]

    /// A table line's cells (cells are separated by at least two spaces).
    static func cells(_ line: Substring) -> [String] {
        line.split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The character offset of each cell's start in every line of `table`.
    static func columnStarts(_ line: Substring) -> [Int] {
        var starts: [Int] = []
        var previous: Character = " ", spaces = 2
        for (offset, character) in line.enumerated() {
            if character != " " && previous == " " && spaces >= 2 { starts.append(offset) }
            spaces = character == " " ? spaces + 1 : 0
            previous = character
        }
        return starts
    }

    @Test func grantTableShowsEveryPartInWords() {
        let lines = TextOutput.grantTable(appID: "a", grants: Self.grants).split(separator: "\n")
        #expect(lines.count == 4)
        #expect(Self.cells(lines[0]) == ["TYPE", "SHARE", "READ", "LIMITED FROM", "DECIDED (UTC)", "BY"])
        #expect(Self.cells(lines[1]) == ["HKQuantityTypeIdentifierHeartRate", "-", "full", "-", "2025-06-01T10:00:00Z", "policy"])
        #expect(Self.cells(lines[2]) == ["HKQuantityTypeIdentifierStepCount", "allowed", "limited", "2026-01-01", "2025-06-01T10:00:01Z", "agent"])
        #expect(Self.cells(lines[3]) == ["HKQuantityTypeIdentifierBodyMass", "denied", "-", "-", "2025-06-01T10:00:00Z", "agent"])
    }

    @Test func grantTableColumnsLineUp() {
        let lines = TextOutput.grantTable(appID: "a", grants: Self.grants).split(separator: "\n")
        let header = Self.columnStarts(lines[0])
        #expect(header.count == 6)
        for line in lines.dropFirst() { #expect(Self.columnStarts(line) == header) }
    }

    @Test func limitedDatesShowTheTimeWhenNotMidnight() {
        let grant = Grant(type: .stepCount, read: .limited(fromMicros: Self.newYear + 90 * Samples.second), decidedMicros: 0, decidedBy: "agent")
        #expect(TextOutput.grantTable(appID: "a", grants: [grant]).contains("2026-01-01T00:01:30Z"))
    }

    @Test func noGrantsSaysWhy() {
        #expect(TextOutput.grantTable(appID: "demo", grants: []) == "no grants recorded for demo (it never asked, or its grants were revoked)")
    }

    @Test func sourcePriorityNumbersTheSourcesBestFirst() {
        #expect(TextOutput.sourcePriority(type: .stepCount, appIDs: ["com.example.watch", "com.example.phone"]) == """
            source order for stepCount (best first):
              1. com.example.watch
              2. com.example.phone
            other sources follow, by app id
            """)
        #expect(TextOutput.sourcePriority(type: .stepCount, appIDs: []) == "no source order set for stepCount: sources rank by app id")
    }

    @Test func revocationCountsAndNamesTypes() {
        #expect(TextOutput.revocation(appID: "a", types: [], revoked: 3)
            == "revoked 3 grants of a; the app will be asked again next time it requests them")
        #expect(TextOutput.revocation(appID: "a", types: [.stepCount], revoked: 1)
            == "revoked 1 grant of a among stepCount; the app will be asked again next time it requests them")
        #expect(TextOutput.revocation(appID: "a", types: [.stepCount, .heartRate], revoked: 0) == "revoked 0 grants of a among stepCount, heartRate")
    }

    @Test func sourceTableMarksRemovedApps() {
        let sources = [
            Source(appID: "a", appName: "App A", firstRequestMicros: Samples.june1, lastRequestMicros: Samples.june1 + Samples.day, isRegistered: true),
            Source(appID: "gone", appName: "Gone", firstRequestMicros: 0, lastRequestMicros: 0, isRegistered: false),
            Source(appID: "imp", appName: "imp", firstRequestMicros: 0, lastRequestMicros: 0, isRegistered: false, sampleCount: 52_586, everAsked: false),
        ]
        let lines = TextOutput.sourceTable(sources).split(separator: "\n")
        #expect(Self.cells(lines[0]) == ["APP ID", "NAME", "SAMPLES", "FIRST REQUEST (UTC)", "LAST REQUEST (UTC)", "REGISTERED"])
        #expect(Self.cells(lines[1]) == ["a", "App A", "0", "2025-06-01T10:00:00Z", "2025-06-02T10:00:00Z", "yes"])
        #expect(Self.cells(lines[2]) == ["gone", "Gone", "0", "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "no (removed)"])
        #expect(Self.cells(lines[3]) == ["imp", "imp", "52586", "never asked", "-", "no"])
        #expect(TextOutput.sourceTable([]) == "no app has asked for authorization or stored samples yet")
    }

    @Test func typeTableListsTheCatalogueWithAliases() {
        let lines = TextOutput.typeTable(TypeCatalogue.all).split(separator: "\n")
        #expect(lines.count == TypeCatalogue.all.count + 1)
        #expect(Self.cells(lines[0]) == ["IDENTIFIER", "ALIAS", "KIND", "SHAREABLE", "UNIT", "GROUP", "NAME"])
        #expect(lines.contains { Self.cells($0) == ["HKQuantityTypeIdentifierStepCount", "stepCount", "quantity", "yes", "count", "Activity", "Steps"] })
        #expect(lines.contains { Self.cells($0) == ["HKWorkoutTypeIdentifier", "workout", "workout", "yes", "-", "Activity", "Workouts"] })
        #expect(lines.contains { Self.cells($0) == ["HKCharacteristicTypeIdentifierDateOfBirth", "dateOfBirth", "characteristic", "no (read only)", "-", "Characteristics", "Date of birth"] })
        #expect(lines.contains { Self.cells($0) == ["HKQuantityTypeIdentifierBloodGlucose", "bloodGlucose", "quantity", "yes", "mg/dL", "Vitals", "Blood glucose"] })
    }

    @Test func explanationPrintsTheTextThenTheGrant() {
        let explanation = Explanation(
            grant: Self.grants[1], earliestPermittedMicros: 0, effectiveReadFromMicros: Self.newYear,
            text: "HKQuantityTypeIdentifierStepCount: limited from 2026-01-01T00:00:00Z.")
        let lines = TextOutput.explanation(appID: "a", type: .stepCount, explanation).split(separator: "\n", omittingEmptySubsequences: false)
        // The paragraph is worded here again from the grant (the broker's text is UTC only).
        #expect(lines[0] == "HKQuantityTypeIdentifierStepCount: limited from 2026-01-01T00:00:00Z (chosen start 2026-01-01T00:00:00Z; "
            + "store floor 1970-01-01T00:00:00Z); sharing authorized. Decided by agent at 2025-06-01T10:00:01Z.")
        #expect(lines[1] == "")
        let fields = Dictionary(uniqueKeysWithValues: lines.dropFirst(2).map { line in
            let cells = Self.cells(line)
            return (cells[0], cells.dropFirst().joined(separator: " "))
        })
        #expect(fields == [
            "app": "a", "type": "HKQuantityTypeIdentifierStepCount (stepCount)", "share": "allowed", "read": "limited",
            "limited from": "2026-01-01", "decided": "2025-06-01T10:00:01Z", "decided by": "agent",
            "store floor": "1970-01-01T00:00:00Z", "reads from": "2026-01-01T00:00:00Z",
        ])
    }

    @Test func explanationOfATypeNeverAskedSaysSo() {
        let explanation = Explanation(grant: nil, earliestPermittedMicros: 0, effectiveReadFromMicros: nil, text: "never asked")
        let text = TextOutput.explanation(appID: "a", type: .sleepAnalysis, explanation)
        #expect(text.contains("none (never asked)"))
        #expect(!text.contains("decided by"))
    }

    @Test func characteristicLines() {
        #expect(TextOutput.characteristic(.dateOfBirth, value: "1990-04-01") == "set dateOfBirth to 1990-04-01")
        #expect(TextOutput.characteristic(.bloodType, value: nil) == "cleared bloodType")
    }

    @Test func decisionSummaries() {
        let decisions = [
            TypeDecision(type: .bodyMass, share: .allow),
            TypeDecision(type: .stepCount, read: .limited(fromMicros: Self.newYear)),
            TypeDecision(type: .heartRate, share: .deny, read: .full),
        ]
        #expect(DecisionText.summary(decisions) == "share bodyMass allowed, heartRate denied; read stepCount limited from 2026-01-01, heartRate full")
        #expect(DecisionText.summary([]) == "nothing")
        #expect(DecisionText.typeList(share: [.workout], read: [.stepCount, .heartRate]) == "share workout; read stepCount, heartRate")
    }
}
