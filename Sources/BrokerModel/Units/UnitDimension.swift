/// The physical dimension of a type's unit: which units fit it (HealthKit's compatible units).
public enum UnitDimension: String, Sendable, CaseIterable {
    /// A plain count (steps, flights).
    case count
    /// A count per unit of time (beats per minute).
    case countPerTime
    /// Energy (kilocalories, joules).
    case energy
    /// Length (metres).
    case length
    /// Mass (kilograms).
    case mass
    /// A fraction (0…1).
    case percent
    /// A duration (seconds, minutes).
    case time
    /// A temperature (°C, °F, K).
    case temperature
    /// A pressure (mmHg).
    case pressure
    /// A volume (litres, fluid ounces).
    case volume
    /// A concentration by mass (mg/dL), or by amount where the type has a molar mass (mmol/L).
    case massPerVolume
    /// A speed (m/s).
    case speed
    /// A power (watts).
    case power
    /// A flow (L/min).
    case volumePerTime
    /// Oxygen uptake per body mass (mL/kg·min: VO2 max).
    case volumePerMassTime
    /// Energy per body mass and time (kcal/hr·kg: physical effort).
    case energyPerMassTime
    /// A sound pressure level (dBASPL).
    case soundPressureLevel
    /// A hearing level (dBHL).
    case hearingLevel
    /// Electrical conductance (siemens).
    case conductance
    /// International units (insulin).
    case internationalUnit
    /// Apple's workout effort score.
    case effortScore
    /// No unit: categories, workouts, characteristics, correlations.
    case none

    /// The base quantities the dimension's units are made of.
    public var exponents: UnitExponents {
        switch self {
        case .count: .base(.count)
        case .countPerTime: .of([.count: 1, .time: -1])
        case .energy: .of([.mass: 1, .length: 2, .time: -2])
        case .length: .base(.length)
        case .mass: .base(.mass)
        case .percent: .base(.fraction)
        case .time: .base(.time)
        case .temperature: .base(.temperature)
        case .pressure: .of([.mass: 1, .length: -1, .time: -2])
        case .volume: .of([.length: 3])
        case .massPerVolume: .of([.mass: 1, .length: -3])
        case .speed: .of([.length: 1, .time: -1])
        case .power: .of([.mass: 1, .length: 2, .time: -3])
        case .volumePerTime: .of([.length: 3, .time: -1])
        case .volumePerMassTime: .of([.length: 3, .mass: -1, .time: -1])
        case .energyPerMassTime: .of([.length: 2, .time: -3])
        case .soundPressureLevel: .base(.soundPressureLevel)
        case .hearingLevel: .base(.hearingLevel)
        case .conductance: .of([.current: 2, .time: 3, .mass: -1, .length: -2])
        case .internationalUnit: .base(.internationalUnit)
        case .effortScore: .base(.effortScore)
        case .none: .none
        }
    }

    /// The unit a dimension's values are stored in unless a type names its own (`TypeDescriptor.canonicalUnit`).
    public var canonicalUnit: String {
        switch self {
        case .count: "count"
        case .countPerTime: "count/min"
        case .energy: "kcal"
        case .length: "m"
        case .mass: "kg"
        case .percent: "%"
        case .time: "s"
        case .temperature: "degC"
        case .pressure: "mmHg"
        case .volume: "L"
        case .massPerVolume: "mg/dL"
        case .speed: "m/s"
        case .power: "W"
        case .volumePerTime: "L/min"
        case .volumePerMassTime: "mL/kg·min"
        case .energyPerMassTime: "kcal/hr·kg"
        case .soundPressureLevel: "dBASPL"
        case .hearingLevel: "dBHL"
        case .conductance: "S"
        case .internationalUnit: "IU"
        case .effortScore: "appleEffortScore"
        case .none: ""
        }
    }

    /// A few units of the dimension, for messages: `m, km, mi, ft`.
    public var exampleUnits: [String] {
        switch self {
        case .count: ["count"]
        case .countPerTime: ["count/min", "count/s", "count/hr"]
        case .energy: ["kcal", "Cal", "kJ", "cal", "J"]
        case .length: ["m", "km", "cm", "mi", "ft", "in", "yd"]
        case .mass: ["kg", "g", "mg", "mcg", "lb", "oz", "st"]
        case .percent: ["%"]
        case .time: ["s", "ms", "min", "hr", "d"]
        case .temperature: ["degC", "degF", "K"]
        case .pressure: ["mmHg", "cmAq", "atm", "kPa", "inHg"]
        case .volume: ["L", "mL", "fl_oz_us", "fl_oz_imp", "cup_us", "pt_us"]
        case .massPerVolume: ["mg/dL", "g/L"]
        case .speed: ["m/s", "km/hr", "mi/hr"]
        case .power: ["W", "kW"]
        case .volumePerTime: ["L/min", "mL/s"]
        case .volumePerMassTime: ["mL/kg·min"]
        case .energyPerMassTime: ["kcal/hr·kg"]
        case .soundPressureLevel: ["dBASPL"]
        case .hearingLevel: ["dBHL"]
        case .conductance: ["S", "mcS"]
        case .internationalUnit: ["IU"]
        case .effortScore: ["appleEffortScore"]
        case .none: []
        }
    }

    /// A readable name for messages: `energy`, `count-per-time`.
    public var readableName: String {
        switch self {
        case .countPerTime: "count-per-time"
        case .massPerVolume: "mass-per-volume"
        case .volumePerTime: "volume-per-time"
        case .volumePerMassTime: "volume-per-mass-and-time"
        case .energyPerMassTime: "energy-per-mass-and-time"
        case .soundPressureLevel: "sound pressure level"
        case .hearingLevel: "hearing level"
        case .internationalUnit: "international unit"
        case .effortScore: "effort score"
        case .none: "unitless"
        default: rawValue
        }
    }

    /// The dimension whose units have `exponents`; nil when none does.
    static func named(by exponents: UnitExponents) -> UnitDimension? {
        allCases.first { $0 != .none && $0.exponents == exponents }
    }
}
