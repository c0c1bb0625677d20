/// A sample's payload: a quantity, a category value, workout details, or a correlation's member samples.
public enum SampleValue: Sendable, Hashable {
    /// Quantity types (steps, heart rate, …).
    case quantity(Quantity)
    /// Category types (e.g. sleep stages).
    case category(Int64)
    /// The workout type.
    case workout(WorkoutDetails)
    /// A correlation type (blood pressure, food): its objects, ordinary samples of the member types,
    /// each with its own uuid (HKCorrelation's `objects`). On reads, only the members the reader may see.
    case correlation([Sample])
}
