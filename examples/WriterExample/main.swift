// writer-example: an app that records workouts and heart rate. It asks to share (write) workouts and
// heart rate, saves three workouts and the heart rate measured during them (with metadata), saves
// one batch again to show that saves are idempotent, and shows that reusing a UUID for other content
// is refused.
//
// An admin registers the app once, with a share usage text (without one it may not ask to write):
//
//     TOKEN=$(healthctl apps add com.example.writer --name "Writer" \
//         --share-usage "Records your workouts and heart rate." --token-only)
//     HEALTHBROKER_APP_ID=com.example.writer HEALTHBROKER_APP_TOKEN=$TOKEN writer-example
//
// Someone answers the prompt (`healthctl consent`, or a daemon started with --consent-policy;
// docs/examples/demo-policy.json lets demo.writer share workouts and heart rate).
import CommandLineSupport
import Foundation
import HealthBrokerClient

let spec = CommandSpec(
    "writer-example",
    summary: "Ask to share workouts and heart rate, save some, and save one batch again.",
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

/// The types this app writes. It reads nothing.
let shareTypes: Set<ObjectType> = [.workout, .heartRate]

/// One recorded workout: what, when (hours after midnight UTC, days ago), how long, how far, how much energy.
struct RecordedWorkout {
    /// The activity.
    var activity: String
    /// How many days before today.
    var daysAgo: Int
    /// The start, in hours after midnight UTC.
    var startHour: Double
    /// Minutes.
    var minutes: Int
    /// Kilometres.
    var kilometres: Double
    /// Kilocalories.
    var kilocalories: Double
    /// The typical heart rate, count/min.
    var heartRate: Double
}

let recorded = [
    RecordedWorkout(activity: "running", daysAgo: 3, startHour: 6.5, minutes: 32, kilometres: 5.4, kilocalories: 345, heartRate: 152),
    RecordedWorkout(activity: "cycling", daysAgo: 2, startHour: 17.75, minutes: 58, kilometres: 21.8, kilocalories: 512, heartRate: 138),
    RecordedWorkout(activity: "walking", daysAgo: 1, startHour: 12.25, minutes: 41, kilometres: 3.6, kilocalories: 176, heartRate: 104),
]

await CommandLineTool.run(spec: spec) { command in
    let socket = try command.requiredString("socket")
    let appID = try command.requiredString("app-id")
    let token = try command.requiredString("token")
    let timeout = try command.int("timeout", in: 1...86_400) ?? 300

    // 1. Open a session and ask to share workouts and heart rate.
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
    print("connected as \(appID); asking to share workouts and heart rate…")
    do {
        try await store.requestAuthorization(toShare: shareTypes, read: [], timeout: .seconds(timeout))
    } catch let error as BrokerError where error.domain == .userCanceled {
        fail("the person cancelled the request; nothing was decided")
    } catch let error as BrokerError where error.code == .deadlineExceeded {
        fail("nobody answered within \(timeout) s (is a consent agent running? try 'healthctl consent')")
    }

    // 2. Share status is visible to the app (read status never is).
    for type in shareTypes.sorted() {
        let status = try await store.authorizationStatus(for: type)
        print("  authorizationStatus(for: \(name(type))) = \(status)")
        if status != .sharingAuthorized { fail("the person did not let this app write \(name(type)); nothing to do") }
    }

    // 3. Build the samples. The app chooses every UUID; here they are derived from what the sample
    //    records, so running the example again (or retrying after a lost connection) stores nothing twice.
    let today = Calendar.utc.startOfDay(for: Date())
    var workouts: [Sample] = []
    var heartRates: [Sample] = []
    for workout in recorded {
        let start = today.addingTimeInterval(Double(-workout.daysAgo) * 86_400 + workout.startHour * 3_600)
        let end = start.addingTimeInterval(Double(workout.minutes) * 60)
        let details = WorkoutDetails(
            activityType: workout.activity, duration: .seconds(workout.minutes * 60),
            totalEnergy: Quantity(workout.kilocalories, "kcal"), totalDistance: Quantity(workout.kilometres, "km"))
        workouts.append(Sample(
            workout: details, start: start, end: end,
            metadata: ["HKMetadataKeyIndoorWorkout": "0", "recordedBy": "writer-example"],
            uuid: stableUUID("workout \(instant(start))")))
        // Heart rate every 5 minutes during the workout, warming up over the first 10 minutes.
        for minute in stride(from: 0, through: workout.minutes, by: 5) {
            let at = start.addingTimeInterval(Double(minute) * 60)
            let warmUp = min(1, 0.8 + Double(minute) / 50)
            let beats = (workout.heartRate * warmUp + Double(minute % 3)).rounded()
            heartRates.append(Sample(
                type: .heartRate, quantity: Quantity(beats, "count/min"), start: at, end: at,
                metadata: ["HKMetadataKeyHeartRateMotionContext": "2"],
                uuid: stableUUID("heart rate \(instant(at))")))
        }
    }

    // 4. Save: each batch is all or nothing, acknowledged once committed.
    let savedWorkouts = try await store.save(workouts)
    print("saved \(workouts.count) workouts: \(describe(savedWorkouts))")
    for (workout, sample) in zip(recorded, workouts) {
        print("  \(instant(sample.startDate))  \(workout.activity), \(workout.minutes) min, \(workout.kilometres) km, \(Int(workout.kilocalories)) kcal")
    }
    let savedHeartRates = try await store.save(heartRates)
    print("saved \(heartRates.count) heart-rate samples (count/min, motion context: active): \(describe(savedHeartRates))")

    // 5. Save the heart-rate batch again: same UUIDs, same content, so nothing changes.
    let again = try await store.save(heartRates)
    print("saved the same heart-rate batch again: \(describe(again)) — saves are idempotent, a retry is safe")

    // 6. A UUID names one sample: other content under a stored UUID is refused.
    var changed = heartRates[0]
    changed.value = .quantity(Quantity(200, "count/min"))
    do {
        _ = try await store.save([changed])
        print("saving other content under a stored uuid: accepted (unexpected)")
    } catch let error as BrokerError where error.code == .alreadyExists {
        print("saving other content under a stored uuid: refused (\(error.code)), nothing of that batch stored")
    }
}

/// `3 new, 0 already stored`.
func describe(_ result: SaveResult) -> String {
    "\(result.saved) new, \(result.unchanged) already stored"
}

/// A UUID derived from `name` (two FNV-1a hashes, shaped as an RFC 9562 version 8 UUID).
func stableUUID(_ name: String) -> String {
    func fnv(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
    let high = fnv("writer-example/" + name) & 0xFFFF_FFFF_FFFF_0FFF | 0x8000  // version 8
    let low = fnv(name + "/writer-example") & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000  // RFC variant
    let digits = Array(hex(high) + hex(low))
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
}

/// `value` as 16 lower-case hex digits.
func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

extension Calendar {
    /// The Gregorian calendar in UTC.
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }
}

/// Prints `message` on standard error and exits with status 1.
func fail(_ message: String) -> Never {
    fflush(nil)
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

/// `workout` for `HKWorkoutTypeIdentifier`, `heartRate` for `HKQuantityTypeIdentifierHeartRate`.
func name(_ type: ObjectType) -> String {
    let short = type.identifier.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "")
    return type == .workout ? "workout" : short.prefix(1).lowercased() + short.dropFirst()
}

/// `date` as UTC ISO-8601.
func instant(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle())
}
