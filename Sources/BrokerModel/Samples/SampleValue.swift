/// A sample's payload: a quantity, a category value, or workout details.
public enum SampleValue: Sendable, Hashable {
    /// Quantity types (steps, heart rate, …).
    case quantity(Quantity)
    /// Category types (e.g. sleep stages).
    case category(Int64)
    /// The workout type.
    case workout(WorkoutDetails)
}
