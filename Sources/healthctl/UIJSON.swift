import BrokerModel
import Foundation

/// The JSON the page of `healthctl ui` reads: types, prompts, apps and their decisions, history rows.
/// Instants are milliseconds since the epoch (the page shows them in local time); no sample value
/// ever appears here.
enum UIJSON {
    /// A type as the page shows it.
    struct TypeInfo: Codable, Equatable {
        /// The HealthKit identifier.
        var type: String
        /// The short alias healthctl commands take.
        var alias: String
        /// The plain name (`Steps`).
        var name: String
        /// The group it is shown under (`Activity`).
        var group: String
        /// The group's place in the order groups are shown in (the Health app's).
        var groupRank: Int
        /// A series of samples (a read may be limited from a date); false for a characteristic.
        var sample: Bool
        /// Summed per day in charts (steps, energy); false for min/average/max (heart rate).
        var cumulative: Bool
        /// Has statistics (a quantity type).
        var quantity: Bool

        init(_ type: ObjectType) {
            let descriptor = TypeCatalogue.descriptor(for: type)
            self.type = type.identifier
            alias = TypeArgument.alias(of: type)
            name = PlainTypeName.of(type)
            let group = PlainTypeName.group(of: type)
            self.group = group.displayName
            groupRank = TypeGroup.allCases.firstIndex(of: group) ?? TypeGroup.allCases.count
            sample = PlainTypeName.isSample(type)
            cumulative = descriptor?.aggregation == .cumulative
            quantity = descriptor?.kind == .quantity
        }
    }

    /// A pending prompt.
    struct PromptInfo: Codable, Equatable {
        var id: UInt64
        var appID: String
        var appName: String
        var readUsage: String
        var shareUsage: String
        /// When the app asked (ms).
        var created: Int64
        /// When the app stops waiting for the answer (ms); nil when it set no deadline.
        var deadline: Int64?
        var share: [TypeInfo]
        var read: [TypeInfo]

        init(_ prompt: Prompt) {
            id = prompt.id
            appID = prompt.appID
            appName = prompt.appName
            readUsage = prompt.readUsage
            shareUsage = prompt.shareUsage
            created = prompt.createdMicros / 1_000
            // Past a JavaScript Date's range (year 275760; a timeout near Int64.max) it is no limit in practice.
            deadline = (1...8_640_000_000_000_000).contains(prompt.deadlineMicros / 1_000) ? prompt.deadlineMicros / 1_000 : nil
            share = prompt.shareTypes.map(TypeInfo.init)
            read = prompt.readTypes.map(TypeInfo.init)
        }
    }

    /// What the event stream says whenever the prompts change.
    struct PromptsEvent: Codable {
        /// Whether the agent is connected to the broker.
        var connected: Bool
        /// Every pending prompt, oldest first.
        var prompts: [PromptInfo]
    }

    /// One decision of one app for one type.
    struct GrantInfo: Codable, Equatable {
        var type: TypeInfo
        /// "allow", "deny", or nil when never decided.
        var share: String?
        /// "full", "from", "deny", or nil when never decided.
        var read: String?
        /// With read "from": the first instant the app may read (ms).
        var from: Int64?
        /// Who decided (the agent, "admin", the policy).
        var decidedBy: String
        /// When (ms).
        var decided: Int64

        init(_ grant: Grant) {
            type = TypeInfo(grant.type)
            share = grant.share.map { $0 == .allow ? "allow" : "deny" }
            switch grant.read {
            case .full?: read = "full"
            case .deny?: read = "deny"
            case .limited(let micros)?:
                read = "from"
                from = micros / 1_000
            case nil: read = nil
            }
            decidedBy = grant.decidedBy
            decided = grant.decidedMicros / 1_000
        }
    }

    /// An app: registered, or one that asked or wrote and was since removed.
    struct AppEntry: Codable, Equatable {
        var appID: String
        var name: String
        var registered: Bool
        /// Whether it ever asked for authorization.
        var asked: Bool
        /// First and last request (ms), when it asked.
        var firstAsked: Int64?
        var lastAsked: Int64?
        /// Samples it wrote, when the broker tells.
        var sampleCount: UInt64?
        var grants: [GrantInfo]
    }

    /// The Apps page.
    struct AppsReply: Codable {
        var apps: [AppEntry]
        /// Every type the broker knows, in catalogue order (the page lists types from it).
        var types: [TypeInfo]
    }

    /// One access-log row: who read or wrote what and when; never a value.
    struct HistoryRow: Codable, Equatable {
        var at: Int64
        var appID: String
        var appName: String
        /// "read", "write", … as the broker logs it.
        var operation: String
        /// The call ("Query", "Statistics", "Save"…), when the broker tells.
        var method: String?
        var type: TypeInfo
        var count: UInt64
    }

    /// The History page.
    struct HistoryReply: Codable {
        var rows: [HistoryRow]
    }

    /// An error shown to the person.
    struct ErrorReply: Codable {
        var error: String
    }

    /// A request that succeeded with nothing to say.
    struct OK: Codable {
        var ok = true
    }

    /// Encodes `value` (keys sorted, so replies compare byte for byte).
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? Array(encoder.encode(value))) ?? Array(#"{"error":"encoding failed"}"#.utf8)
    }
}
