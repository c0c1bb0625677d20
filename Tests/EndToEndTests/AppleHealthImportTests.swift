import BrokerModel
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// `healthctl import FILE.zip` of a generated Apple Health export into a real daemon: the daily
/// totals the broker computes match totals this test computes from the XML itself, each source is
/// a named source, the Me element sets characteristics, and importing again stores nothing.
@Suite("Apple Health import")
struct AppleHealthImportTests {
    /// Records in the generated export (APPLE_HEALTH_E2E_RECORDS overrides it).
    static let records = Int(ProcessInfo.processInfo.environment["APPLE_HEALTH_E2E_RECORDS"] ?? "") ?? 100_000
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let zone = TimeZone(identifier: "America/New_York")!

    /// Runs a program to its end; its status and standard error.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = errors.fileHandleForReading.readDataToEndOfFile()
        await process.exited()
        return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }

    /// The value of `name="…"` in a line of the export.
    static func attribute(_ name: String, in line: Substring) -> Substring? {
        guard let start = line.range(of: " \(name)=\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return rest[..<end]
    }

    /// Per type, per New York day (`yyyy-MM-dd`), the sum of the top-level Records in canonical units:
    /// computed from the XML text with DateFormatter and a unit table of its own, not the importer's code.
    static func expectedTotals(_ xml: String) -> [String: [String: Double]] {
        let factors: [String: [String: Double]] = [
            "HKQuantityTypeIdentifierStepCount": ["count": 1],
            "HKQuantityTypeIdentifierDistanceWalkingRunning": ["m": 1, "km": 1_000, "mi": 1_609.344],
            "HKQuantityTypeIdentifierActiveEnergyBurned": ["kcal": 1, "kJ": 1 / 4.184],
        ]
        let parse = DateFormatter()
        parse.locale = Locale(identifier: "en_US_POSIX")
        parse.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = zone
        day.dateFormat = "yyyy-MM-dd"
        var totals: [String: [String: Double]] = [:]
        for line in xml.split(separator: "\n") where line.hasPrefix(" <Record ") {
            guard let type = attribute("type", in: line), let units = factors[String(type)],
                  let unit = attribute("unit", in: line), let factor = units[String(unit)],
                  let value = attribute("value", in: line).flatMap({ Double($0) }),
                  let start = attribute("startDate", in: line).flatMap({ parse.date(from: String($0)) })
            else { continue }
            totals[String(type), default: [:]][day.string(from: start), default: 0] += value * factor
        }
        return totals
    }

    @Test func aGeneratedExportZipImportsWithDailyTotalsSourcesAndNoDuplicates() async throws {
        let daemon = try await DaemonProcess(policy: allowAll)
        let xml = daemon.directory + "/export.xml"
        let zip = daemon.directory + "/export.zip"
        let script = Self.repository + "/scripts/make-apple-health-export.py"
        for output in [xml, zip] {
            let made = try await Self.run("/usr/bin/env", ["python3", script, "--records", String(Self.records), "--seed", "7", "--output", output])
            try #require(made.status == 0, "\(made.errors)")
        }
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        let expected = Self.expectedTotals(text)
        let recordCount = text.components(separatedBy: "<Record ").count - 1 + text.components(separatedBy: "<Workout ").count - 1
        #expect(recordCount >= Self.records)

        let imported = try await SetGrantTests.healthctl(daemon, ["import", zip])
        try #require(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.contains("read \(recordCount) records"), "\(imported.output)")
        #expect(imported.output.contains("HKQuantityTypeIdentifierMadeUpFutureMeasure: "), "\(imported.output)")
        #expect(imported.output.contains("HKDataTypeSleepDurationGoal: "), "\(imported.output)")
        #expect(imported.output.contains("ActivitySummary: "), "\(imported.output)")

        let admin = try await daemon.admin()
        defer { admin.close() }
        let first = try #require(text.range(of: "startDate=\"")).upperBound
        // The generator starts at a New York midnight: the day buckets' anchor.
        let from = try #require(AppleHealthDateForTest.date(String(text[first...].prefix(25))))
        let to = from.addingTimeInterval(Double(Self.records) * 60 + 86_400 * 2)
        for (type, days) in expected {
            let query = StatisticsQuery(
                type: ObjectType(type), predicate: SamplePredicate(start: from.addingTimeInterval(-86_400), end: to),
                options: .sum, interval: .day, anchor: from, timeZone: Self.zone.identifier)
            var actual: [String: Double] = [:]
            let dayName = DateFormatter()
            dayName.locale = Locale(identifier: "en_US_POSIX")
            dayName.timeZone = Self.zone
            dayName.dateFormat = "yyyy-MM-dd"
            for bucket in try await admin.statistics(query).buckets {
                actual[dayName.string(from: bucket.startDate)] = bucket.sum ?? 0
            }
            #expect(Set(actual.keys) == Set(days.keys), "\(type)")
            for (day, total) in days {
                let got = actual[day] ?? .nan
                #expect(abs(got - total) <= max(1e-6, abs(total) * 1e-9), "\(type) \(day): broker \(got), export \(total)")
            }
        }

        let sources = try await admin.sources()
        let names = Dictionary(sources.map { ($0.appName, $0) }, uniquingKeysWith: { first, _ in first })
        for name in ["Alex’s iPhone", "Alex’s Apple\u{a0}Watch", "Sleep & Scale"] {
            let source = try #require(names[name], "\(sources.map(\.appName))")
            #expect(source.sampleCount > 0)
            #expect(source.appID.hasPrefix("apple-health."))
        }
        let stored = sources.filter { $0.appID.hasPrefix("apple-health.") }.map(\.sampleCount).reduce(0, +)
        let reader = try await daemon.connectApp("com.example.characteristics.reader")
        defer { reader.close() }
        try await reader.requestAuthorization(toShare: [], read: [.bloodType, .dateOfBirth], timeout: .seconds(10))
        let characteristics = try await reader.characteristics([.bloodType, .dateOfBirth])
        #expect(characteristics[.bloodType] == "AB-")
        #expect(characteristics[.dateOfBirth] == "1987-06-15")

        let again = try await SetGrantTests.healthctl(daemon, ["import", zip])
        try #require(again.status == 0, "\(again.errors)")
        #expect(again.output.contains("new: 0,"), "\(again.output)")
        let after = try await admin.sources().filter { $0.appID.hasPrefix("apple-health.") }.map(\.sampleCount).reduce(0, +)
        #expect(after == stored)
    }
}

/// The test's own reading of an export date (DateFormatter, not the importer's parser).
enum AppleHealthDateForTest {
    static func date(_ text: String) -> Date? {
        let parse = DateFormatter()
        parse.locale = Locale(identifier: "en_US_POSIX")
        parse.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return parse.date(from: text)
    }
}
