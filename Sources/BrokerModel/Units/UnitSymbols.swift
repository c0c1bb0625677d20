/// The unit names HealthKit's unit strings use, with their size in base units (kg, m, s, K, mol, A, …).
///
/// Sizes are SI (mass in kilograms, so kg, lb, J, Pa, W are exact numbers); a unit whose size is a
/// fraction gives numerator and denominator (°F is 5/9 K) so that conversions stay exact where the old
/// fixed table was (4.184 kJ is exactly 1 kcal).
enum UnitSymbols {
    /// One named unit: base units per one = scale ÷ divisor, then + offset (kelvins; temperatures only).
    struct Unit {
        let exponents: UnitExponents
        let scale: Double
        var divisor: Double = 1
        var offset: Double = 0
    }

    private static let energy = UnitDimension.energy.exponents
    private static let pressure = UnitDimension.pressure.exponents
    private static let power = UnitDimension.power.exponents
    private static let volume = UnitDimension.volume.exponents

    /// SI prefixes as (multiplier, divisor), longest first so that `da` and `mc` are tried before `d` and `m`.
    static let prefixes: [(String, Double, Double)] = [
        ("da", 10, 1), ("mc", 1, 1e6), ("µ", 1, 1e6), ("μ", 1, 1e6),
        ("p", 1, 1e12), ("n", 1, 1e9), ("m", 1, 1e3), ("c", 1, 1e2), ("d", 1, 10),
        ("k", 1e3, 1), ("M", 1e6, 1), ("G", 1e9, 1), ("T", 1e12, 1),
    ]

    /// The (multiplier, divisor) of `head` when it is a prefix followed by `name` (`mmol` → 1, 1000); nil otherwise.
    static func prefix(of head: String, before name: String) -> (Double, Double)? {
        for (prefix, multiplier, divisor) in prefixes where head == prefix + name { return (multiplier, divisor) }
        return nil
    }

    /// Units that take an SI prefix (the gram is 1/1000 of the base kilogram, which is `kg`).
    static let prefixable: [String: Unit] = [
        "g": Unit(exponents: .base(.mass), scale: 1, divisor: 1_000),
        "m": Unit(exponents: .base(.length), scale: 1),
        "s": Unit(exponents: .base(.time), scale: 1),
        "L": Unit(exponents: volume, scale: 1, divisor: 1_000),
        "l": Unit(exponents: volume, scale: 1, divisor: 1_000),
        "J": Unit(exponents: energy, scale: 1),
        "cal": Unit(exponents: energy, scale: 4.184),
        "mol": Unit(exponents: .base(.amount), scale: 1),
        "Pa": Unit(exponents: pressure, scale: 1),
        "W": Unit(exponents: power, scale: 1),
        "V": Unit(exponents: .of([.mass: 1, .length: 2, .time: -3, .current: -1]), scale: 1),
        "S": Unit(exponents: UnitDimension.conductance.exponents, scale: 1),
        "A": Unit(exponents: .base(.current), scale: 1),
        "Hz": Unit(exponents: .of([.time: -1]), scale: 1),
        "lx": Unit(exponents: .base(.illuminance), scale: 1),
    ]

    /// Every unit by its exact name, prefixable ones unprefixed included; tried before any prefix
    /// is split off, so `min`, `mi`, `mmHg`, `cmAq`, `dBASPL` and `d` are never read as prefixes.
    static let plain: [String: Unit] = {
        var units = prefixable
        let others: [String: Unit] = [
            "count": Unit(exponents: .base(.count), scale: 1),
            "%": Unit(exponents: .base(.fraction), scale: 1),
            // Temperatures: kelvins = value × scale + offset.
            "K": Unit(exponents: .base(.temperature), scale: 1),
            "degC": Unit(exponents: .base(.temperature), scale: 1, offset: 273.15),
            "degF": Unit(exponents: .base(.temperature), scale: 5, divisor: 9, offset: 459.67 * 5.0 / 9.0),
            // Time.
            "min": Unit(exponents: .base(.time), scale: 60),
            "hr": Unit(exponents: .base(.time), scale: 3_600),
            "h": Unit(exponents: .base(.time), scale: 3_600),   // accepted by the broker's first unit table (count/h)
            "d": Unit(exponents: .base(.time), scale: 86_400),
            // Length (international yard and pound, 1959).
            "in": Unit(exponents: .base(.length), scale: 0.0254),
            "ft": Unit(exponents: .base(.length), scale: 0.3048),
            "yd": Unit(exponents: .base(.length), scale: 0.9144),
            "mi": Unit(exponents: .base(.length), scale: 1_609.344),
            // Mass.
            "oz": Unit(exponents: .base(.mass), scale: 0.028349523125),
            "lb": Unit(exponents: .base(.mass), scale: 0.45359237),
            "st": Unit(exponents: .base(.mass), scale: 6.35029318),
            // Volume.
            "fl_oz_us": Unit(exponents: volume, scale: 29.5735295625, divisor: 1_000_000),
            "fl_oz_imp": Unit(exponents: volume, scale: 28.4130625, divisor: 1_000_000),
            "cup_us": Unit(exponents: volume, scale: 236.5882365, divisor: 1_000_000),
            "cup_imp": Unit(exponents: volume, scale: 284.130625, divisor: 1_000_000),
            "pt_us": Unit(exponents: volume, scale: 473.176473, divisor: 1_000_000),
            "pt_imp": Unit(exponents: volume, scale: 568.26125, divisor: 1_000_000),
            // Energy: the food calorie is a kilocalorie.
            "Cal": Unit(exponents: energy, scale: 4_184),
            // Pressure, in pascals.
            "mmHg": Unit(exponents: pressure, scale: 133.322387415),
            "cmAq": Unit(exponents: pressure, scale: 98.0665),
            "atm": Unit(exponents: pressure, scale: 101_325),
            "inHg": Unit(exponents: pressure, scale: 3_386.389),
            // Levels and units that convert to nothing else.
            "dBASPL": Unit(exponents: .base(.soundPressureLevel), scale: 1),
            "dBHL": Unit(exponents: .base(.hearingLevel), scale: 1),
            "IU": Unit(exponents: .base(.internationalUnit), scale: 1),
            "appleEffortScore": Unit(exponents: .base(.effortScore), scale: 1),
        ]
        units.merge(others) { _, other in other }
        return units
    }()
}
