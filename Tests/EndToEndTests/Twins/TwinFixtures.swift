import Foundation
@testable import HealthBrokerClient

/// The fixed data of the twins suite: app X's own samples and the other apps' samples.
///
/// Every uuid and value is fixed, so X's samples are byte-for-byte the same in both daemons.
enum TwinFixtures {
    /// The app under test.
    static let x = "com.example.x"
    /// The apps whose samples X must never notice.
    static let others = ["com.example.o1", "com.example.o2", "com.example.o3"]
    /// The types X shares (and asks to read).
    static let types: [ObjectType] = [.stepCount, .heartRate, .sleepAnalysis]
    static let minute: Int64 = 60_000_000
    static let day: Int64 = 24 * hour

    /// Policy of store A: X may share but not read; the other apps may do everything.
    static let deniedPolicy = #"{ "rules": [ { "app": "com.example.x", "share": "allow", "read": "deny" }, { "app": "*", "share": "allow", "read": "full" } ] }"#

    /// A uuid built from a tag and a number, in canonical (lower-case) form.
    static func uuid(_ tag: UInt32, _ number: Int) -> String {
        String(format: "%08x-0000-4000-8000-%012x", tag, number)
    }

    /// X's own samples: steps, heart rate and sleep inside its query windows, plus a long step sample.
    static let xSamples: [Sample] = {
        var samples: [Sample] = []
        for k in 0..<8 {
            let start = base + Int64(k) * 2 * hour + 10 * minute
            samples.append(quantity(uuid(0xa000_0001, k), .stepCount, start, start + 30 * minute, 100 + Double(k) * 7, "count"))
        }
        samples.append(quantity(uuid(0xa000_0001, 99), .stepCount, base - 2 * day, base + 2 * day, 5, "count"))
        for k in 0..<6 {
            let start = base + Int64(k) * 3 * hour + 5 * minute
            samples.append(quantity(uuid(0xa000_0002, k), .heartRate, start, start + minute, 60 + Double(k) * 4, "count/min"))
        }
        samples.append(category(uuid(0xa000_0003, 0), base + hour, base + 3 * hour, 1))
        samples.append(category(uuid(0xa000_0003, 1), base + 3 * hour, base + 5 * hour, 3))
        samples.append(category(uuid(0xa000_0003, 2), base + 22 * hour, base + 23 * hour + 30 * minute, 0))
        return samples
    }()

    /// More samples X saves later in the scripts (so followers and observers have something to see).
    static func xLater(_ number: Int) -> Sample {
        let start = base + 30 * hour + Int64(number) * hour
        return quantity(uuid(0xa000_0004, number), .stepCount, start, start + 20 * minute, 40 + Double(number), "count")
    }

    /// `count` samples of the other app `app` (0-based), spread over four days around X's window.
    ///
    /// Values sit outside X's ranges (heart rate 40…189) so a leak into statistics would show.
    static func otherSamples(app: Int, count: Int, generation: Int = 0) -> [Sample] {
        let spread = 4 * day / Int64(max(count, 1))
        return (0..<count).map { i in
            let start = base - day + Int64(i) * spread + Int64(app) * 7 * minute + Int64(generation) * 3 * minute
            let id = uuid(0xb000_0000 + UInt32(app) << 8 + UInt32(generation), i)
            switch i % 3 {
            case 0: return quantity(id, .stepCount, start, start + 5 * minute, Double(1 + i % 50), "count")
            case 1: return quantity(id, .heartRate, start, start + minute, Double(40 + (i * 37) % 150), "count/min")
            default: return category(id, start, start + 30 * minute, Int64(i % 4))
            }
        }
    }

    /// One other-app step sample spanning four years around X's window.
    static let otherLong = quantity(uuid(0xb0ff_0000, 1), .stepCount, base - 3 * 365 * day, base + 365 * day, 99_999, "count")

    /// A step sample of the other app o1 that X later tries to save, and to delete, under the same uuid.
    static let otherHeld = quantity(uuid(0xb0ff_0000, 2), .stepCount, base + 4 * hour, base + 4 * hour + 10 * minute, 77, "count")

    /// X's sample under `otherHeld`'s uuid (different content: its own steps).
    static let xUnderOthersUUID = quantity(otherHeld.uuid, .stepCount, base + 6 * hour, base + 6 * hour + 10 * minute, 12, "count")

    static func quantity(_ uuid: String, _ type: ObjectType, _ start: Int64, _ end: Int64, _ value: Double, _ unit: String) -> Sample {
        Sample(uuid: uuid, type: type, startMicros: start, endMicros: end, value: .quantity(Quantity(value, unit)))
    }

    static func category(_ uuid: String, _ start: Int64, _ end: Int64, _ value: Int64) -> Sample {
        Sample(uuid: uuid, type: .sleepAnalysis, startMicros: start, endMicros: end, value: .category(value))
    }
}

extension TwinFixtures {
    /// A uuid the other app o1 holds and X tries to delete: its seeded step sample #3, which no
    /// script deletes (seeding deletes every 10th, `othersWriteAndDelete` those at 1 mod 4).
    static let otherHeldForDelete = uuid(0xb000_0000, 3)
}
