public import BrokerModel

/// Unit conversion for a type or a dimension; every stored quantity is in its type's canonical unit.
///
/// Any HealthKit unit string of the right dimension is accepted (`UnitConverter` in BrokerModel
/// parses them); a unit of another dimension is INVALID_ARGUMENT naming it and what is expected.
public enum Units {
    /// The unit values of `dimension` are stored in when a type names none of its own: count, count/min, kcal, m, kg, % (none: "").
    public static func canonicalUnit(for dimension: UnitDimension) -> String {
        dimension.canonicalUnit
    }

    /// The multiplier from `unit` to the canonical unit of `dimension`; nil for an unknown unit, one of
    /// another dimension, or one with an offset (a temperature, which converts by more than a factor).
    public static func factor(_ unit: String, dimension: UnitDimension) -> Double? {
        guard let converter = try? UnitConverter(unit, dimension: dimension), converter.toCanonical(0) == 0 else { return nil }
        return converter.toCanonical(1)
    }

    /// `quantity`'s value in the canonical unit of `dimension`; INVALID_ARGUMENT naming the unit and the dimension.
    public static func toCanonical(_ quantity: Quantity, dimension: UnitDimension) throws(BrokerError) -> Double {
        try UnitConverter(quantity.unit, dimension: dimension).toCanonical(quantity.value)
    }

    /// `quantity`'s value in `descriptor`'s canonical unit; INVALID_ARGUMENT naming the unit and what the type takes.
    public static func toCanonical(_ quantity: Quantity, descriptor: TypeDescriptor) throws(BrokerError) -> Double {
        try UnitConverter(quantity.unit, for: descriptor).toCanonical(quantity.value)
    }

    /// A canonical `value` of `dimension` expressed in `unit`; INVALID_ARGUMENT when the unit does not fit.
    public static func fromCanonical(_ value: Double, to unit: String, dimension: UnitDimension) throws(BrokerError) -> Double {
        try UnitConverter(unit, dimension: dimension).fromCanonical(value)
    }

    /// The unit a result is presented in: the canonical unit for "", else `unit` once validated.
    public static func resolveResultUnit(_ unit: String, dimension: UnitDimension) throws(BrokerError) -> String {
        if unit.isEmpty { return canonicalUnit(for: dimension) }
        _ = try UnitConverter(unit, dimension: dimension)
        return unit
    }

    /// The converter results of `descriptor`'s type are presented with: its canonical unit for "", else `unit` once validated.
    public static func resultConverter(_ unit: String, descriptor: TypeDescriptor) throws(BrokerError) -> UnitConverter {
        try UnitConverter(unit.isEmpty ? descriptor.canonicalUnit : unit, for: descriptor)
    }
}
