/// A parsed HealthKit unit string (`mg/dL`, `mmol<180.15588>/L`, `mL/kg·min`, `degF`): its dimension
/// and how a value in it maps to the base units (grams, metres, seconds, kelvins, …).
///
/// value in base units = value × `scale` + `offset`. Only a temperature written alone (`degC`,
/// `degF`) has an offset; inside a compound unit a temperature counts by its degree size only.
public struct HealthUnit: Sendable, Hashable {
    /// The unit string as given.
    public let text: String
    /// The base quantities the unit is made of.
    public let exponents: UnitExponents
    /// Base units per one of this unit.
    let scale: Double
    /// Added after scaling (kelvins of 0 °C, 0 °F); 0 for every unit but a lone temperature.
    let offset: Double

    /// Parses `text`; INVALID_ARGUMENT naming the unit and what in it is not understood.
    public init(parsing text: String) throws(BrokerError) {
        var parser = HealthUnitParser(text)
        let term = try parser.parseUnit()
        self.text = text
        exponents = term.exponents
        scale = term.scale
        offset = term.offset
    }

    /// A unit made of parts already known (the molar-mass substitution of `UnitConverter`).
    init(text: String, exponents: UnitExponents, scale: Double, offset: Double) {
        self.text = text
        self.exponents = exponents
        self.scale = scale
        self.offset = offset
    }

    /// The dimension of the unit among the catalogue's dimensions; nil when it is none of them.
    public var dimension: UnitDimension? { UnitDimension.named(by: exponents) }

    /// The unit with amounts of substance turned into mass at `molarMass` g/mol (`mmol/L` → g/m³ scale).
    func substitutingMolarMass(_ molarMass: Double) -> HealthUnit {
        let moles = exponents[.amount]
        guard moles != 0 else { return self }
        var exponents = exponents
        exponents[.mass] += moles
        exponents[.amount] = 0
        return HealthUnit(text: text, exponents: exponents, scale: scale * HealthUnitParser.power(molarMass, moles), offset: offset)
    }
}
