/// The powers of the base quantities a unit is made of: `mL/kg·min` is length³ · mass⁻¹ · time⁻¹.
///
/// Mass, length, time, temperature, amount of substance and current are the SI bases; count and
/// fraction (`%`) are kept apart from plain numbers, as HealthKit keeps `count` and `%` apart; the
/// decibel levels, international units, lux and Apple's effort score are bases of their own, since
/// nothing converts them to anything else.
public struct UnitExponents: Hashable, Sendable {
    /// One exponent per base, indexed by `Base`.
    var powers: SIMD16<Int8>

    /// The base quantities, by their position in `powers`.
    enum Base: Int, CaseIterable {
        case mass, length, time, temperature, amount, count, fraction, current
        case soundPressureLevel, hearingLevel, internationalUnit, illuminance, effortScore
    }

    /// A dimensionless unit (all exponents zero).
    static let none = UnitExponents(powers: .zero)

    /// Exponent 1 of one base.
    static func base(_ base: Base) -> UnitExponents {
        var powers = SIMD16<Int8>.zero
        powers[base.rawValue] = 1
        return UnitExponents(powers: powers)
    }

    /// Several bases with their exponents: `[.length: 1, .time: -1]` for speed.
    static func of(_ bases: KeyValuePairs<Base, Int8>) -> UnitExponents {
        var powers = SIMD16<Int8>.zero
        for (base, power) in bases { powers[base.rawValue] = power }
        return UnitExponents(powers: powers)
    }

    /// The exponent of `base`.
    subscript(base: Base) -> Int8 {
        get { powers[base.rawValue] }
        set { powers[base.rawValue] = newValue }
    }

    /// The product of two units' dimensions.
    static func + (lhs: UnitExponents, rhs: UnitExponents) -> UnitExponents {
        UnitExponents(powers: lhs.powers &+ rhs.powers)
    }

    /// A unit's dimension raised to `power`.
    static func * (lhs: UnitExponents, power: Int8) -> UnitExponents {
        UnitExponents(powers: lhs.powers &* power)
    }
}
