/// One value a category type takes, by its HealthKit case name: `asleepREM` = 5 of sleep analysis.
public struct CategoryValueName: Sendable, Hashable {
    /// The case name (`HKCategoryValueSleepAnalysis.asleepREM` → `asleepREM`).
    public let name: String
    /// The raw value stored.
    public let value: Int64

    /// Creates a value name.
    public init(_ name: String, _ value: Int64) {
        self.name = name
        self.value = value
    }
}
