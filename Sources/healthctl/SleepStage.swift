/// Sleep values as `HKCategoryValueSleepAnalysis` numbers them.
enum SleepStage: Int64, CaseIterable {
    /// In bed, not necessarily asleep.
    case inBed = 0
    /// Asleep, stage unknown.
    case asleepUnspecified = 1
    /// Awake during the sleep session.
    case awake = 2
    /// Core (light) sleep.
    case asleepCore = 3
    /// Deep sleep.
    case asleepDeep = 4
    /// REM sleep.
    case asleepREM = 5

    /// Whether the stage counts as asleep.
    var isAsleep: Bool {
        switch self {
        case .asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM: true
        case .inBed, .awake: false
        }
    }
}
