/// Where a person finds a type, as the Health app groups them: the consent page and terminal agent show types by group.
public enum TypeGroup: String, Sendable, CaseIterable {
    /// Steps, distances, energy, workouts.
    case activity
    /// Heart rate, variability, cardio fitness.
    case heart
    /// Sleep analysis.
    case sleep
    /// Weight, height, body fat.
    case bodyMeasurements
    /// Temperature, blood pressure, blood glucose.
    case vitals
    /// Dietary energy, nutrients, water.
    case nutrition
    /// Respiratory rate, blood oxygen, lung function.
    case respiratory
    /// Audio exposure.
    case hearing
    /// Walking speed, steadiness, stairs.
    case mobility
    /// Cycle tracking, pregnancy.
    case reproductiveHealth
    /// Symptoms such as headache or fatigue.
    case symptoms
    /// Mindful sessions.
    case mindfulness
    /// Date of birth, biological sex, blood type, …
    case characteristics
    /// Anything else.
    case other

    /// The group's name for people: `Body measurements`.
    public var displayName: String {
        switch self {
        case .activity: "Activity"
        case .heart: "Heart"
        case .sleep: "Sleep"
        case .bodyMeasurements: "Body measurements"
        case .vitals: "Vitals"
        case .nutrition: "Nutrition"
        case .respiratory: "Respiratory"
        case .hearing: "Hearing"
        case .mobility: "Mobility"
        case .reproductiveHealth: "Reproductive health"
        case .symptoms: "Symptoms"
        case .mindfulness: "Mindfulness"
        case .characteristics: "Characteristics"
        case .other: "Other"
        }
    }
}
