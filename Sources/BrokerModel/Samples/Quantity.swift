/// A numeric value in a unit, e.g. 72 count/min or 5.2 km.
public struct Quantity: Sendable, Hashable {
    /// The number.
    public var value: Double
    /// The unit: count; count/min; kcal, kJ; m, km, mi; kg, lb, g; %.
    public var unit: String

    /// Creates a quantity.
    public init(_ value: Double, _ unit: String) {
        self.value = value
        self.unit = unit
    }
}
