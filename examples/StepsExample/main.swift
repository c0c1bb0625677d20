// steps-example: the seed scenario end to end. An app with LIMITED read access to steps charts the
// last 90 days exactly as HealthKit's earliestAuthorizedSampleDate(for:) page shows: its query
// starts at the later of "90 days ago" and the date the person let it read from, it asks the broker
// for daily step totals, and it says plainly that anything before that start is unknown, not absent.
//
// An admin registers the app once, with a read usage text:
//
//     TOKEN=$(healthctl apps add com.example.steps --name "Steps" \
//         --read-usage "Charts your steps over the last 90 days." --token-only)
//     HEALTHBROKER_APP_ID=com.example.steps HEALTHBROKER_APP_TOKEN=$TOKEN steps-example --time-zone Europe/Paris
//
// Someone answers the prompt (`healthctl consent`, or a daemon started with --consent-policy;
// docs/examples/demo-policy.json lets demo.steps read steps for the last 30 days only), and some
// steps must be stored: `healthctl demo-data --app demo.watch` generates 90 days of them.
import CommandLineSupport
import Foundation
import HealthBrokerClient

let spec = CommandSpec(
    "steps-example",
    summary: "Ask to read steps, then print daily step totals for the last 90 days the app may read.",
    options: [
        .option("socket", value: "PATH", help: "The broker's app socket.",
                default: HealthStore.defaultSocketPath, environment: "HEALTHBROKER_APP_SOCKET"),
        .option("app-id", value: "ID", help: "The id registered with 'healthctl apps add'.",
                environment: "HEALTHBROKER_APP_ID"),
        .option("token", value: "TOKEN", help: "The app's token (prefer the variable: arguments show in ps).",
                environment: "HEALTHBROKER_APP_TOKEN"),
        .option("time-zone", value: "ZONE", help: "The IANA time zone whose calendar days the totals follow.",
                default: "UTC"),
        .option("timeout", value: "SECONDS", help: "How long to wait for the person to answer the prompt.",
                default: "300"),
    ],
    version: BrokerVersion.broker)

/// How far back the app would like to look: its chart shows the last 90 days.
let intendedDays = 90

await CommandLineTool.run(spec: spec) { command in
    let socket = try command.requiredString("socket")
    let appID = try command.requiredString("app-id")
    let token = try command.requiredString("token")
    let zoneName = try command.requiredString("time-zone")
    let timeout = try command.int("timeout", in: 1...86_400) ?? 300
    guard let timeZone = TimeZone(identifier: zoneName) else {
        throw ArgumentError(.invalidValue, "unknown time zone '\(zoneName)' (an IANA name such as Europe/Paris)", command: "steps-example")
    }

    // 1. Open a session and ask to read steps (a prompt only the first time).
    let store: HealthStore
    do {
        store = try await HealthStore.connect(socketPath: socket, appID: appID, appToken: token)
    } catch let error as BrokerError {
        let hint = error.code == .unauthenticated
            ? "is the app registered ('healthctl apps list') and its token current?"
            : "is healthbrokerd running? socket: \(socket)"
        fail("cannot open a session: \(error)\nhint: \(hint)")
    }
    defer { store.close() }
    print("connected as \(appID); asking to read steps…")
    do {
        try await store.requestAuthorization(toShare: [], read: [.stepCount], timeout: .seconds(timeout))
    } catch let error as BrokerError where error.domain == .userCanceled {
        fail("the person cancelled the request; nothing was decided")
    } catch let error as BrokerError where error.code == .deadlineExceeded {
        fail("nobody answered within \(timeout) s (is a consent agent running? try 'healthctl consent')")
    }

    // 2. The reference page's code, line for line: start at the later of 90 days ago and the
    //    authorized date, and count only samples that start in the range.
    let types: Set<ObjectType> = [.stepCount]
    let authorizationDates = try await store.earliestAuthorizedSampleDate(for: types)
    let intendedStartDate = Date().addingTimeInterval(-Double(intendedDays) * 24 * 3600)
    let authorizationDate = authorizationDates[.stepCount]
    let queryStartDate = [intendedStartDate, authorizationDate]
        .compactMap { $0 }
        .max() ?? intendedStartDate
    let now = Date.now
    let predicate = HealthStore.predicateForSamples(withStart: queryStartDate, end: now, options: .strictStartDate)
    print("earliest authorized date for steps: \(authorizationDate.map(instant) ?? "none (full access or no access: the app cannot tell which)")")
    print("query: steps starting from \(instant(queryStartDate)) to \(instant(now)), summed per day in \(zoneName)")

    // 3. One statistics query: the sum per calendar day in the chosen zone, buckets aligned to its midnight.
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let query = StatisticsQuery(
        type: .stepCount, predicate: predicate, options: .sum, interval: .day,
        anchor: calendar.startOfDay(for: queryStartDate), timeZone: zoneName)
    print("")
    do {
        let result = try await store.statistics(query)
        printDailyTotals(result, calendar: calendar, queryStart: queryStartDate, now: now)
    } catch let error as BrokerError where error.domain == .noData {
        print("no steps recorded in the range this app may read")
    }

    // 4. Say what the totals mean.
    print("")
    if let authorizationDate, authorizationDate >= intendedStartDate {
        print("Note: the person limited this app's access to steps from \(instant(authorizationDate)).")
        print("Steps before \(instant(queryStartDate)) are unknown to this app, not absent: a full history may exist")
        print("outside the range it may read, so these totals (and any trend or baseline built on them) come from")
        print("partial data. Granting full access would show the whole \(intendedDays) days.")
    } else if authorizationDate != nil {
        print("Note: access is limited, but from before \(intendedDays) days ago, so the app's own \(intendedDays)-day window decides.")
    } else {
        print("Note: no earliest authorized date, so this app has full access or none at all, and it cannot tell which:")
        print("with no access it would see only the steps it saved itself, exactly like an empty history.")
    }
}

/// One line per day: the local date, the weekday, the total, and a bar; partial days are marked.
func printDailyTotals(_ result: StatisticsResult, calendar: Calendar, queryStart: Date, now: Date) {
    let buckets = result.buckets.filter { $0.sampleCount > 0 }
    guard !buckets.isEmpty else {
        print("no steps recorded in the range this app may read")
        return
    }
    let largest = buckets.compactMap(\.sum).max() ?? 0
    print("daily step totals (\(result.unit)), \(buckets.count) day\(buckets.count == 1 ? "" : "s") with data:")
    for bucket in buckets {
        // The broker may clip the first and last buckets to the query's range: look at the whole calendar day.
        let start = calendar.startOfDay(for: bucket.startDate)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start
        let total = bucket.sum ?? 0
        let bar = String(repeating: "#", count: largest > 0 ? Int((total / largest * 30).rounded()) : 0)
        var note = ""
        if start < queryStart { note = "  (from \(time(queryStart, calendar)), where the query starts)" }
        if end > now { note = "  (so far today)" }
        let steps = String(Int(total.rounded()))
        let padded = String(repeating: " ", count: max(0, 7 - steps.count)) + steps
        print("  \(day(start, calendar)) \(weekday(start, calendar))  \(padded)  \(bar)\(note)")
    }
    let total = buckets.compactMap(\.sum).reduce(0, +)
    print("  total: \(Int(total.rounded())) steps, \(Int((total / Double(buckets.count)).rounded())) a day on average")
}

/// Prints `message` on standard error and exits with status 1.
func fail(_ message: String) -> Never {
    fflush(nil)
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

/// `date` as UTC ISO-8601.
func instant(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle())
}

/// `date`'s calendar day in `calendar`'s zone: `2025-06-01`.
func day(_ date: Date, _ calendar: Calendar) -> String {
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
}

/// `date`'s time of day in `calendar`'s zone: `14:05`.
func time(_ date: Date, _ calendar: Calendar) -> String {
    let parts = calendar.dateComponents([.hour, .minute], from: date)
    return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
}

/// `date`'s weekday in `calendar`'s zone: `Mon`.
func weekday(_ date: Date, _ calendar: Calendar) -> String {
    ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][(calendar.component(.weekday, from: date) - 1) % 7]
}
