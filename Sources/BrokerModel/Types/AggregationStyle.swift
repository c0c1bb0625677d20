/// How a type's samples combine over time, as `HKQuantityAggregationStyle`.
public enum AggregationStyle: String, Sendable {
    /// Values add up (steps, energy, distance).
    case cumulative
    /// Values are point measurements (heart rate, body mass).
    case discrete
    /// Not a quantity: categories, workouts, characteristics.
    case none
}
