/// Reads a HealthKit unit string.
///
///     unit    := product ("/" product)*          every product after a "/" divides: kcal/hr·kg = kcal/(hr·kg)
///     product := factor (("·" | "*") factor)*
///     factor  := primary ("^" ["-"] digits)?
///     primary := "(" unit ")" | symbol
///     symbol  := [prefix] name | [prefix] "mol<" number ">"
struct HealthUnitParser {
    /// A unit read so far: its dimension, size in base units (scale ÷ divisor), offset, and whether it is one symbol alone.
    struct Term {
        var exponents: UnitExponents
        var scale: Double
        var divisor: Double
        var offset: Double
        var isLoneSymbol: Bool

        static let one = Term(exponents: .none, scale: 1, divisor: 1, offset: 0, isLoneSymbol: false)

        /// The product with `other` to `power`; a product is never a lone symbol, so it keeps no offset.
        func times(_ other: Term, power: Int8) -> Term {
            let up = HealthUnitParser.power(other.scale, power.magnitude)
            let down = HealthUnitParser.power(other.divisor, power.magnitude)
            return Term(exponents: exponents + other.exponents * power,
                        scale: scale * (power < 0 ? down : up), divisor: divisor * (power < 0 ? up : down),
                        offset: 0, isLoneSymbol: false)
        }

        /// The same size without offset, and no longer a lone symbol.
        var grouped: Term { Term(exponents: exponents, scale: scale, divisor: divisor, offset: 0, isLoneSymbol: false) }
    }

    private let text: String
    private let characters: [Character]
    private var position = 0

    init(_ text: String) {
        self.text = text
        characters = Array(text)
    }

    /// The whole string as one unit.
    mutating func parseUnit() throws(BrokerError) -> Term {
        guard !characters.isEmpty else { throw problem("it is empty") }
        let term = try parseQuotient()
        guard position == characters.count else { throw problem("unexpected \"\(characters[position])\"") }
        return term.isLoneSymbol ? term : term.grouped
    }

    private mutating func parseQuotient() throws(BrokerError) -> Term {
        var result = try parseProduct()
        while peek == "/" {
            position += 1
            result = result.times(try parseProduct(), power: -1)
        }
        return result
    }

    private mutating func parseProduct() throws(BrokerError) -> Term {
        var result = try parseFactor()
        while let next = peek, next == "·" || next == "*" {
            position += 1
            result = result.times(try parseFactor(), power: 1)
        }
        return result
    }

    private mutating func parseFactor() throws(BrokerError) -> Term {
        let primary = try parsePrimary()
        guard peek == "^" else { return primary }
        position += 1
        var digits = ""
        if peek == "-" { digits.append("-"); position += 1 }
        while let next = peek, next.isASCII, next.isNumber { digits.append(next); position += 1 }
        guard let power = Int8(digits), power != 0, (-9...9).contains(power) else {
            throw problem("the exponent after \"^\" must be a whole number from -9 to 9, not 0")
        }
        return Term.one.times(primary, power: power)
    }

    private mutating func parsePrimary() throws(BrokerError) -> Term {
        if peek == "(" {
            position += 1
            let inner = try parseQuotient()
            guard peek == ")" else { throw problem("a \"(\" is not closed") }
            position += 1
            return inner   // "(degC)" is still degC alone
        }
        var symbol = ""
        var inAngle = false
        while let next = peek {
            if inAngle {
                if next == ">" { inAngle = false }
            } else if next == "<" {
                inAngle = true
            } else if "()/·*^".contains(next) {
                break
            }
            symbol.append(next)
            position += 1
        }
        guard !symbol.isEmpty else {
            throw problem(peek.map { "a unit is missing before \"\($0)\"" } ?? "a unit is missing at the end")
        }
        guard let term = Self.term(of: symbol) else { throw problem("unknown unit \"\(symbol)\"") }
        return term
    }

    private var peek: Character? { position < characters.count ? characters[position] : nil }

    private func problem(_ detail: String) -> BrokerError {
        .invalidArgument("unit \"\(text)\" is not a HealthKit unit string: \(detail)")
    }

    /// One symbol: a name of its own (`min`, `mmHg`, `Cal`), else a prefix and a name that takes one (`mcg`, `dL`, `kJ`).
    static func term(of symbol: String) -> Term? {
        if let unit = UnitSymbols.plain[symbol] { return term(unit, multiplier: 1, divisor: 1) }
        if symbol.hasSuffix(">"), let open = symbol.firstIndex(of: "<") {
            // mol<180.15588>: moles of a substance of that molar mass (g/mol), i.e. a mass.
            guard let molarMass = Double(symbol[symbol.index(after: open)..<symbol.index(before: symbol.endIndex)]),
                  molarMass.isFinite, molarMass > 0 else { return nil }
            let head = String(symbol[..<open])
            guard let (multiplier, divisor) = head == "mol" ? (1, 1) : UnitSymbols.prefix(of: head, before: "mol") else { return nil }
            return Term(exponents: .base(.mass), scale: multiplier * molarMass, divisor: divisor * 1_000, offset: 0, isLoneSymbol: true)
        }
        for (prefix, multiplier, divisor) in UnitSymbols.prefixes where symbol.hasPrefix(prefix) {
            if let unit = UnitSymbols.prefixable[String(symbol.dropFirst(prefix.count))] {
                return term(unit, multiplier: multiplier, divisor: divisor)
            }
        }
        return nil
    }

    private static func term(_ unit: UnitSymbols.Unit, multiplier: Double, divisor: Double) -> Term {
        Term(exponents: unit.exponents, scale: unit.scale * multiplier, divisor: unit.divisor * divisor,
             offset: unit.offset, isLoneSymbol: true)
    }

    /// `value` to a small whole power, by repeated multiplication.
    static func power(_ value: Double, _ power: UInt8) -> Double {
        var result = 1.0
        for _ in 0..<power { result *= value }
        return result
    }
}
