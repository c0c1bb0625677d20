public import BrokerModel

/// Unit conversion within a dimension; every stored quantity is in its dimension's canonical unit.
public enum Units {
    /// The unit values of `dimension` are stored in: count, count/min, kcal, m, kg, % (none: "").
    public static func canonicalUnit(for dimension: UnitDimension) -> String {
        switch dimension {
        case .count: "count"
        case .countPerTime: "count/min"
        case .energy: "kcal"
        case .length: "m"
        case .mass: "kg"
        case .percent: "%"
        case .none: ""
        }
    }

    /// The multiplier from `unit` to the canonical unit of `dimension`; nil for an unknown unit or one of another dimension.
    public static func factor(_ unit: String, dimension: UnitDimension) -> Double? {
        UnitTable.entry(unit, dimension: dimension)?.factor
    }

    /// `quantity`'s value in the canonical unit; INVALID_ARGUMENT naming the unit, the dimension and the allowed units.
    public static func toCanonical(_ quantity: Quantity, dimension: UnitDimension) throws(BrokerError) -> Double {
        let entry = try checkedEntry(quantity.unit, dimension: dimension)
        return quantity.value * entry.multiplier / entry.divisor
    }

    /// A canonical `value` of `dimension` expressed in `unit`; INVALID_ARGUMENT when the unit does not fit.
    public static func fromCanonical(_ value: Double, to unit: String, dimension: UnitDimension) throws(BrokerError) -> Double {
        let entry = try checkedEntry(unit, dimension: dimension)
        return value * entry.divisor / entry.multiplier
    }

    /// The unit a result is presented in: the canonical unit for "", else `unit` once validated.
    public static func resolveResultUnit(_ unit: String, dimension: UnitDimension) throws(BrokerError) -> String {
        if unit.isEmpty { return canonicalUnit(for: dimension) }
        _ = try checkedEntry(unit, dimension: dimension)
        return unit
    }

    /// The table entry of `unit`, or INVALID_ARGUMENT explaining what `dimension` accepts.
    static func checkedEntry(_ unit: String, dimension: UnitDimension) throws(BrokerError) -> UnitTable.Entry {
        guard let entry = UnitTable.entry(unit, dimension: dimension) else {
            throw .invalidArgument(mismatchMessage(unit, dimension: dimension))
        }
        return entry
    }

    /// `unit "lb" is not a length unit (allowed: m, km, mi, ft)`.
    static func mismatchMessage(_ unit: String, dimension: UnitDimension) -> String {
        let allowed = UnitTable.units(of: dimension)
        if allowed.isEmpty { return "unit \"\(unit)\" given for a type without units" }
        let article = dimension == .energy ? "an" : "a"
        return "unit \"\(unit)\" is not \(article) \(UnitTable.name(of: dimension)) unit (allowed: \(allowed.joined(separator: ", ")))"
    }
}
