/// The unit names HealthKit's unit strings use, with their size in base units (g, m, s, K, mol, A, …).
enum UnitSymbols {
    /// One named unit.
    struct Unit {
        let exponents: UnitExponents
        let scale: Double
        var offset: Double = 0
    }

    private static let energy = UnitDimension.energy.exponents
    private static let pressure = UnitDimension.pressure.exponents
    private static let power = UnitDimension.power.exponents
    private static let volume = UnitDimension.volume.exponents

    /// SI prefixes, longest first so that `da` and `mc` are tried before `d` and `m`.
    static let prefixes: [(String, Double)] = [
        ("da", 1e1), ("mc", 1e-6), ("µ", 1e-6), ("μ", 1e-6),
        ("p", 1e-12), ("n", 1e-9), ("m", 1e-3), ("c", 1e-2), ("d", 1e-1),
        ("k", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12),
    ]

    /// The scale of `head` when it is a prefix followed by `name` (`mmol` → 1e-3); nil otherwise.
    static func prefixScale(of head: String, before name: String) -> Double? {
        for (prefix, scale) in prefixes where head == prefix + name { return scale }
        return nil
    }

    /// Units that take an SI prefix (mass in grams: the kilogram is `kg`).
    static let prefixable: [String: Unit] = [
        "g": Unit(exponents: .base(.mass), scale: 1),
        "m": Unit(exponents: .base(.length), scale: 1),
        "s": Unit(exponents: .base(.time), scale: 1),
        "L": Unit(exponents: volume, scale: 1e-3),
        "l": Unit(exponents: volume, scale: 1e-3),
        "J": Unit(exponents: energy, scale: 1e3),
        "cal": Unit(exponents: energy, scale: 4.184e3),
        "mol": Unit(exponents: .base(.amount), scale: 1),
        "Pa": Unit(exponents: pressure, scale: 1e3),
        "W": Unit(exponents: power, scale: 1e3),
        "V": Unit(exponents: .of([.mass: 1, .length: 2, .time: -3, .current: -1]), scale: 1e3),
        "S": Unit(exponents: UnitDimension.conductance.exponents, scale: 1e-3),
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
            "degF": Unit(exponents: .base(.temperature), scale: 5.0 / 9.0, offset: 459.67 * 5.0 / 9.0),
            // Time.
            "min": Unit(exponents: .base(.time), scale: 60),
            "hr": Unit(exponents: .base(.time), scale: 3_600),
            "d": Unit(exponents: .base(.time), scale: 86_400),
            // Length (international yard and pound, 1959).
            "in": Unit(exponents: .base(.length), scale: 0.0254),
            "ft": Unit(exponents: .base(.length), scale: 0.3048),
            "yd": Unit(exponents: .base(.length), scale: 0.9144),
            "mi": Unit(exponents: .base(.length), scale: 1_609.344),
            // Mass.
            "oz": Unit(exponents: .base(.mass), scale: 28.349523125),
            "lb": Unit(exponents: .base(.mass), scale: 453.59237),
            "st": Unit(exponents: .base(.mass), scale: 6_350.29318),
            // Volume.
            "fl_oz_us": Unit(exponents: volume, scale: 29.5735295625e-6),
            "fl_oz_imp": Unit(exponents: volume, scale: 28.4130625e-6),
            "cup_us": Unit(exponents: volume, scale: 236.5882365e-6),
            "cup_imp": Unit(exponents: volume, scale: 284.130625e-6),
            "pt_us": Unit(exponents: volume, scale: 473.176473e-6),
            "pt_imp": Unit(exponents: volume, scale: 568.26125e-6),
            // Energy: the food calorie is a kilocalorie.
            "Cal": Unit(exponents: energy, scale: 4.184e6),
            // Pressure, in pascals × 1000 (mass is in grams).
            "mmHg": Unit(exponents: pressure, scale: 133.322387415e3),
            "cmAq": Unit(exponents: pressure, scale: 98.0665e3),
            "atm": Unit(exponents: pressure, scale: 101_325e3),
            "inHg": Unit(exponents: pressure, scale: 3_386.389e3),
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
