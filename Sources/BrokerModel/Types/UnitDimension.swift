/// The physical dimension of a type's unit.
public enum UnitDimension: String, Sendable {
    /// A plain count (steps, flights).
    case count
    /// A count per unit of time (beats per minute).
    case countPerTime
    /// Energy (kilocalories, joules).
    case energy
    /// Length (metres).
    case length
    /// Mass (kilograms).
    case mass
    /// A fraction (0…1).
    case percent
    /// No unit: categories, workouts, characteristics.
    case none
}
