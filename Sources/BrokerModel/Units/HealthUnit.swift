/// A parsed HealthKit unit string (`mg/dL`, `mmol<180.15588>/L`, `mL/kg·min`, `degF`): its dimension
/// and how a value in it maps to SI base units (kilograms, metres, seconds, kelvins, …).
///
/// value in base units = value × `scale` ÷ `divisor` + `offset`. Only a temperature written alone
/// (`degC`, `degF`) has an offset; inside a compound unit a temperature counts by its degree size only.
public struct HealthUnit: Sendable, Hashable {
    /// The unit string as given.
    public let text: String
    /// The base quantities the unit is made of.
    public let exponents: UnitExponents
    /// Base units per `divisor` of this unit.
    let scale: Double
    /// Kept apart from `scale` so that sizes like 1/60 or 5/9 convert exactly where they can.
    let divisor: Double
    /// Added after scaling (kelvins of 0 °C, 0 °F); 0 for every unit but a lone temperature.
    let offset: Double

    /// Parses `text`; INVALID_ARGUMENT naming the unit and what in it is not understood.
    public init(parsing text: String) throws(BrokerError) {
        var parser = HealthUnitParser(text)
        let term = try parser.parseUnit()
        self.init(text: text, exponents: term.exponents, scale: term.scale, divisor: term.divisor, offset: term.offset)
    }

    /// A unit made of parts already known.
    init(text: String, exponents: UnitExponents, scale: Double, divisor: Double, offset: Double) {
        self.text = text
        self.exponents = exponents
        self.scale = scale
        self.divisor = divisor
        self.offset = offset
    }

    /// The dimension of the unit among the catalogue's dimensions; nil when it is none of them.
    public var dimension: UnitDimension? { UnitDimension.named(by: exponents) }

    /// The unit with amounts of substance turned into mass at `molarMass` g/mol (`mmol/L` → kg/m³).
    func substitutingMolarMass(_ molarMass: Double) -> HealthUnit {
        let moles = exponents[.amount]
        guard moles != 0 else { return self }
        var exponents = exponents
        exponents[.mass] += moles
        exponents[.amount] = 0
        let up = HealthUnitParser.power(molarMass, moles.magnitude)
        let down = HealthUnitParser.power(1_000, moles.magnitude)
        return HealthUnit(text: text, exponents: exponents, scale: scale * (moles < 0 ? down : up),
                          divisor: divisor * (moles < 0 ? up : down), offset: offset)
    }
}
