/// Converts values between a unit an app gave and the canonical unit of a type (or dimension).
///
/// Without an offset, canonical = value × `scale` ÷ `divisor` (two numbers: 4.184 kJ is exactly 1
/// kcal, 1 count/s exactly 60 count/min). Temperatures (°F ↔ °C) go through kelvins with offsets.
public struct UnitConverter: Sendable {
    /// The unit converted from and to.
    public let unit: String
    /// The canonical unit.
    public let canonicalUnit: String
    private let scale: Double
    private let divisor: Double
    /// The two units, when either has an offset (a lone temperature); nil otherwise.
    private let affine: (given: HealthUnit, canonical: HealthUnit)?

    /// The converter between `unit` and `descriptor`'s canonical unit; INVALID_ARGUMENT when `unit`
    /// is not a HealthKit unit string, or is one of another dimension, naming the unit and what the type takes.
    public init(_ unit: String, for descriptor: TypeDescriptor) throws(BrokerError) {
        try self.init(unit, dimension: descriptor.dimension, canonicalUnit: descriptor.canonicalUnit,
                      molarMass: descriptor.molarMass, subject: descriptor.type.identifier)
    }

    /// The converter between `unit` and `canonicalUnit` of `dimension`; `subject` names what takes the unit in messages.
    public init(_ unit: String, dimension: UnitDimension, canonicalUnit: String? = nil, molarMass: Double? = nil,
                subject: String? = nil) throws(BrokerError) {
        let canonicalUnit = canonicalUnit ?? dimension.canonicalUnit
        self.unit = unit
        self.canonicalUnit = canonicalUnit
        if dimension == .none {
            throw .invalidArgument("unit \"\(unit)\" given for \(subject ?? "a type") without units")
        }
        if unit == canonicalUnit {   // the common case: no parsing
            scale = 1
            divisor = 1
            affine = nil
            return
        }
        var given = try HealthUnit(parsing: unit)
        var canonical: HealthUnit
        do throws(BrokerError) {
            canonical = try HealthUnit(parsing: canonicalUnit)
        } catch {
            preconditionFailure("canonical unit \"\(canonicalUnit)\" does not parse: \(error.message)")
        }
        if let molarMass {
            given = given.substitutingMolarMass(molarMass)
            canonical = canonical.substitutingMolarMass(molarMass)
        }
        guard given.exponents == canonical.exponents, canonical.exponents == dimension.exponents else {
            throw .invalidArgument(Self.mismatchMessage(given, dimension: dimension, subject: subject))
        }
        scale = given.scale * canonical.divisor
        divisor = given.divisor * canonical.scale
        affine = given.offset != 0 || canonical.offset != 0 ? (given, canonical) : nil
    }

    /// `value` in the canonical unit.
    @inline(__always)
    public func toCanonical(_ value: Double) -> Double {
        guard let (given, canonical) = affine else { return value * scale / divisor }
        let base = value * given.scale / given.divisor + given.offset
        return (base - canonical.offset) * canonical.divisor / canonical.scale
    }

    /// A canonical `value` in `unit`.
    @inline(__always)
    public func fromCanonical(_ value: Double) -> Double {
        guard let (given, canonical) = affine else { return value * divisor / scale }
        let base = value * canonical.scale / canonical.divisor + canonical.offset
        return (base - given.offset) * given.divisor / given.scale
    }

    /// `unit "lb" is a mass unit, but HK…DistanceWalkingRunning takes length units (such as m, km, mi, ft)`.
    static func mismatchMessage(_ given: HealthUnit, dimension: UnitDimension, subject: String?) -> String {
        let what = given.dimension.map { "is \(article($0.readableName)) \($0.readableName) unit" } ?? "is of another dimension"
        let taker = subject ?? "the value"
        return "unit \"\(given.text)\" \(what), but \(taker) takes \(dimension.readableName) units "
            + "(such as \(dimension.exampleUnits.joined(separator: ", ")))"
    }

    private static func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }
}
