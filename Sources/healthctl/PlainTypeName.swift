import BrokerModel

/// The words a person reads for a type in the consent agent and the page (`healthctl ui`), and the group it is shown under: `Steps`, `Heart rate`, `Date of birth`.
enum PlainTypeName {
    /// Names that read better than the words of the alias.
    static let overrides: [String: String] = [
        "stepCount": "Steps",
        "sleepAnalysis": "Sleep",
        "mindfulSession": "Mindful minutes",
        "workout": "Workouts",
        "distanceWalkingRunning": "Walking and running distance",
        "oxygenSaturation": "Blood oxygen",
        "bodyMass": "Body weight",
        "bodyFatPercentage": "Body fat percentage",
    ]

    /// The plain name of `type`: an override, else the alias split into words (`restingHeartRate` → `Resting heart rate`).
    static func of(_ type: ObjectType) -> String {
        let alias = TypeArgument.alias(of: type)
        if let name = overrides[alias] { return name }
        var words = ""
        for character in alias {
            if character.isUppercase, !words.isEmpty { words.append(" ") }
            words.append(character)
        }
        return words.prefix(1).uppercased() + words.dropFirst().lowercased()
    }

    /// `Steps (stepCount)`: the plain name with the alias `healthctl` commands take.
    static func labelled(_ type: ObjectType) -> String {
        "\(of(type)) (\(TypeArgument.alias(of: type)))"
    }

    /// The groups a person sees types under, in the order shown.
    static let groups = ["Activity", "Heart", "Sleep", "Mindfulness", "Body", "Vitals", "Nutrition", "About you", "Other"]

    /// Which group `type` is shown under (`Activity`, `Heart`, …; characteristics are `About you`).
    static func group(of type: ObjectType) -> String {
        switch TypeArgument.alias(of: type) {
        case "stepCount", "activeEnergyBurned", "basalEnergyBurned", "distanceWalkingRunning", "flightsClimbed", "workout":
            return "Activity"
        case "heartRate", "restingHeartRate": return "Heart"
        case "sleepAnalysis": return "Sleep"
        case "mindfulSession": return "Mindfulness"
        case "bodyMass", "bodyFatPercentage": return "Body"
        case "oxygenSaturation": return "Vitals"
        default: return isSample(type) ? "Other" : "About you"
        }
    }

    /// Whether `type` is a series of samples (a read can be limited from a date), not a characteristic.
    static func isSample(_ type: ObjectType) -> Bool {
        TypeCatalogue.descriptor(for: type)?.isCharacteristic != true
    }
}
