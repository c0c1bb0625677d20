// authorization-example: an app asks to read steps and heart rate, then works out where its queries
// may start — the HealthKit pattern of earliestAuthorizedSampleDate(for:), step by step.
//
// An admin registers the app once, with a read usage text (without one it may not ask to read):
//
//     TOKEN=$(healthctl apps add com.example.steps --name "Steps" \
//         --read-usage "Shows your step and heart-rate trends." --token-only)
//     HEALTHBROKER_APP_ID=com.example.steps HEALTHBROKER_APP_TOKEN=$TOKEN authorization-example
//
// Someone has to answer the prompt: a person running `healthctl consent`, an agent running
// `healthctl consent --policy FILE`, or the daemon itself when started with `--consent-policy FILE`
// (docs/examples/demo-policy.json grants limited access to steps and full access to heart rate).
import CommandLineSupport
import Foundation
import HealthBrokerClient

let spec = CommandSpec(
    "authorization-example",
    summary: "Ask to read steps and heart rate, then show where queries may start.",
    options: [
        .option("socket", value: "PATH", help: "The broker's app socket.",
                default: HealthStore.defaultSocketPath, environment: "HEALTHBROKER_APP_SOCKET"),
        .option("app-id", value: "ID", help: "The id registered with 'healthctl apps add'.",
                environment: "HEALTHBROKER_APP_ID"),
        .option("token", value: "TOKEN", help: "The app's token (prefer the variable: arguments show in ps).",
                environment: "HEALTHBROKER_APP_TOKEN"),
        .option("timeout", value: "SECONDS", help: "How long to wait for the person to answer the prompt.",
                default: "300"),
    ],
    version: BrokerVersion.broker)

/// The types this app reads. It writes nothing, so it asks to share nothing.
let readTypes: Set<ObjectType> = [.stepCount, .heartRate]
/// How far back the app would like to look: its charts show the last 90 days.
let intendedDays = 90

await CommandLineTool.run(spec: spec) { command in
    let socket = try command.requiredString("socket")
    let appID = try command.requiredString("app-id")
    let token = try command.requiredString("token")
    let timeout = try command.int("timeout", in: 1...86_400) ?? 300

    // 1. Open a session as the app.
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
    print("connected as \(appID)")

    // 2. Would asking show a prompt? `shouldRequest` until every type was asked about once.
    let before = try await store.statusForAuthorizationRequest(toShare: [], read: readTypes)
    let meaning = before == .shouldRequest
        ? "some type was never asked about, so asking may show the person a prompt"
        : "every type was asked about before, so asking completes at once"
    print("request status before asking: \(before) (\(meaning))")

    // 3. Ask. This returns once the request was handled — also when the person denied everything:
    //    success says nothing about what was granted, exactly as in HealthKit.
    print("asking to read \(names(readTypes)); waiting up to \(timeout) s for the person…")
    do {
        try await store.requestAuthorization(toShare: [], read: readTypes, timeout: .seconds(timeout))
    } catch let error as BrokerError where error.domain == .userCanceled {
        fail("the person cancelled the request; nothing was decided, so the app may ask again later")
    } catch let error as BrokerError where error.code == .deadlineExceeded {
        fail("nobody answered within \(timeout) s (is a consent agent running? try 'healthctl consent'); the prompt was withdrawn")
    }
    print("the request was handled")

    let after = try await store.statusForAuthorizationRequest(toShare: [], read: readTypes)
    print("request status after asking: \(after) (asking again would not prompt)")

    // 4. Read access is never revealed: the share status of a read-only request stays notDetermined.
    for type in readTypes.sorted() {
        let status = try await store.authorizationStatus(for: type)
        print("authorizationStatus(for: \(name(type))) = \(status) (share status only; read access is never revealed)")
    }

    // 5. The dates. Only types with *limited* read access get an entry; full access and no access
    //    look the same (no entry), by design.
    let permitted = try await store.earliestPermittedSampleDate()
    let authorizationDates = try await store.earliestAuthorizedSampleDate(for: readTypes)
    print("")
    print("earliest permitted sample date (store-wide, for every app): \(day(permitted))")
    print("earliest authorized sample dates:\(authorizationDates.isEmpty ? " none (no type has limited access)" : "")")
    for (type, date) in authorizationDates.sorted(by: { $0.key < $1.key }) {
        print("  \(name(type)): \(iso8601(date))")
    }

    // 6. Per type, start the query at the later of "90 days ago" and the authorized date — the
    //    reference page's code, line for line. Types can differ, so this is worked out per type.
    print("")
    print("query start per type (the later of \(intendedDays) days ago and the authorized date):")
    let intendedStartDate = Date().addingTimeInterval(-Double(intendedDays) * 24 * 3600)
    for type in readTypes.sorted() {
        let authorizationDate = authorizationDates[type]
        let queryStartDate = [intendedStartDate, authorizationDate]
            .compactMap { $0 }
            .max() ?? intendedStartDate
        print("  \(name(type)): from \(iso8601(queryStartDate))")
        if let authorizationDate, authorizationDate >= intendedStartDate {
            print("    limited access: the person let this app read from \(day(authorizationDate)) only.")
            print("    Samples before that date are unknown to this app, not absent: a full history may")
            print("    exist outside the range it may read, so trends and baselines must work from partial data.")
        } else if authorizationDate != nil {
            print("    limited access, but from before \(intendedDays) days ago: the app's own window decides.")
        } else {
            print("    no earliest date: full access, or no access at all — the app cannot tell which.")
        }
    }
}

/// Prints `message` on standard error and exits with status 1.
func fail(_ message: String) -> Never {
    fflush(nil)
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

/// `stepCount` for `HKQuantityTypeIdentifierStepCount`.
func name(_ type: ObjectType) -> String {
    let short = type.identifier.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "")
    return short.prefix(1).lowercased() + short.dropFirst()
}

/// The types' short names joined by "and", in identifier order so the output is the same every run.
func names(_ types: Set<ObjectType>) -> String {
    types.sorted().map(name).joined(separator: " and ")
}

/// `date` as UTC ISO-8601.
func iso8601(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle())
}

/// `date`'s UTC calendar day.
func day(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle().year().month().day())
}
