import BrokerModel

/// The units each dimension accepts, as exact ratios to the canonical unit.
enum UnitTable {
    /// One unit: canonical value = value × multiplier ÷ divisor (two numbers keep kJ and count/h exact).
    struct Entry: Sendable {
        let unit: String
        let multiplier: Double
        let divisor: Double
        /// The single multiplier to the canonical unit.
        var factor: Double { multiplier / divisor }
    }

    /// The units of `dimension`, canonical first.
    static func entries(of dimension: UnitDimension) -> [Entry] {
        switch dimension {
        case .count:
            [Entry(unit: "count", multiplier: 1, divisor: 1)]
        case .countPerTime:
            [Entry(unit: "count/min", multiplier: 1, divisor: 1),
             Entry(unit: "count/s", multiplier: 60, divisor: 1),
             Entry(unit: "count/h", multiplier: 1, divisor: 60)]
        case .energy:
            [Entry(unit: "kcal", multiplier: 1, divisor: 1),
             Entry(unit: "kJ", multiplier: 1, divisor: 4.184)]
        case .length:
            [Entry(unit: "m", multiplier: 1, divisor: 1),
             Entry(unit: "km", multiplier: 1_000, divisor: 1),
             Entry(unit: "mi", multiplier: 1_609.344, divisor: 1),
             Entry(unit: "ft", multiplier: 0.3048, divisor: 1)]
        case .mass:
            [Entry(unit: "kg", multiplier: 1, divisor: 1),
             Entry(unit: "g", multiplier: 1, divisor: 1_000),
             Entry(unit: "lb", multiplier: 0.45359237, divisor: 1)]
        case .percent:
            [Entry(unit: "%", multiplier: 1, divisor: 1)]
        case .none:
            []
        }
    }

    /// The entry of `unit` in `dimension` (exact, case-sensitive match), or nil.
    static func entry(_ unit: String, dimension: UnitDimension) -> Entry? {
        entries(of: dimension).first { $0.unit == unit }
    }

    /// The unit names of `dimension`, canonical first.
    static func units(of dimension: UnitDimension) -> [String] {
        entries(of: dimension).map(\.unit)
    }

    /// A readable dimension name for messages.
    static func name(of dimension: UnitDimension) -> String {
        switch dimension {
        case .count: "count"
        case .countPerTime: "count-per-time"
        case .energy: "energy"
        case .length: "length"
        case .mass: "mass"
        case .percent: "percent"
        case .none: "unitless"
        }
    }
}
