@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("Units")
struct UnitsTests {
    @Test func canonicalUnits() {
        #expect(Units.canonicalUnit(for: .count) == "count")
        #expect(Units.canonicalUnit(for: .countPerTime) == "count/min")
        #expect(Units.canonicalUnit(for: .energy) == "kcal")
        #expect(Units.canonicalUnit(for: .length) == "m")
        #expect(Units.canonicalUnit(for: .mass) == "kg")
        #expect(Units.canonicalUnit(for: .percent) == "%")
        #expect(Units.canonicalUnit(for: .none) == "")
    }

    @Test func factors() {
        #expect(Units.factor("count", dimension: .count) == 1)
        #expect(Units.factor("count/min", dimension: .countPerTime) == 1)
        #expect(Units.factor("count/s", dimension: .countPerTime) == 60)
        #expect(nearlyEqual(Units.factor("count/h", dimension: .countPerTime) ?? 0, 1.0 / 60))
        #expect(Units.factor("kcal", dimension: .energy) == 1)
        #expect(nearlyEqual(Units.factor("kJ", dimension: .energy) ?? 0, 1 / 4.184))
        #expect(Units.factor("m", dimension: .length) == 1)
        #expect(Units.factor("km", dimension: .length) == 1_000)
        #expect(Units.factor("mi", dimension: .length) == 1_609.344)
        #expect(Units.factor("ft", dimension: .length) == 0.3048)
        #expect(Units.factor("kg", dimension: .mass) == 1)
        #expect(Units.factor("g", dimension: .mass) == 0.001)
        #expect(Units.factor("lb", dimension: .mass) == 0.45359237)
        #expect(Units.factor("%", dimension: .percent) == 1)
    }

    @Test func unknownOrWrongDimensionFactorIsNil() {
        #expect(Units.factor("cals", dimension: .energy) == nil)
        #expect(Units.factor("KJ", dimension: .energy) == nil)  // units are case-sensitive
        #expect(Units.factor("kg", dimension: .length) == nil)
        #expect(Units.factor("m", dimension: .mass) == nil)
        #expect(Units.factor("count", dimension: .countPerTime) == nil)
        #expect(Units.factor("count/min", dimension: .count) == nil)
        #expect(Units.factor("", dimension: .count) == nil)
        #expect(Units.factor("", dimension: .none) == nil)
        #expect(Units.factor("count", dimension: .none) == nil)
    }

    @Test func energy() throws {
        #expect(try Units.toCanonical(Quantity(4.184, "kJ"), dimension: .energy) == 1)
        #expect(try nearlyEqual(Units.toCanonical(Quantity(418.4, "kJ"), dimension: .energy), 100))
        #expect(try Units.toCanonical(Quantity(250, "kcal"), dimension: .energy) == 250)
        #expect(try Units.fromCanonical(1, to: "kJ", dimension: .energy) == 4.184)
        #expect(try nearlyEqual(Units.fromCanonical(500, to: "kJ", dimension: .energy), 2_092))
        #expect(try Units.fromCanonical(500, to: "kcal", dimension: .energy) == 500)
    }

    @Test func length() throws {
        #expect(try Units.toCanonical(Quantity(1, "km"), dimension: .length) == 1_000)
        #expect(try nearlyEqual(Units.toCanonical(Quantity(5.2, "km"), dimension: .length), 5_200))
        #expect(try Units.toCanonical(Quantity(1, "mi"), dimension: .length) == 1_609.344)
        #expect(try nearlyEqual(Units.toCanonical(Quantity(1_000, "ft"), dimension: .length), 304.8))
        #expect(try Units.fromCanonical(1_609.344, to: "mi", dimension: .length) == 1)
        #expect(try Units.fromCanonical(2_500, to: "km", dimension: .length) == 2.5)
        #expect(try nearlyEqual(Units.fromCanonical(1, to: "ft", dimension: .length), 3.280839895013123))
        // Between non-canonical units, through metres.
        let mile = try Units.toCanonical(Quantity(1, "mi"), dimension: .length)
        #expect(try nearlyEqual(Units.fromCanonical(mile, to: "km", dimension: .length), 1.609344))
        #expect(try nearlyEqual(Units.fromCanonical(mile, to: "ft", dimension: .length), 5_280))
        let tenK = try Units.toCanonical(Quantity(10, "km"), dimension: .length)
        #expect(try nearlyEqual(Units.fromCanonical(tenK, to: "mi", dimension: .length), 6.2137119223733395))
    }

    @Test func mass() throws {
        #expect(try Units.toCanonical(Quantity(1, "lb"), dimension: .mass) == 0.45359237)
        #expect(try Units.toCanonical(Quantity(500, "g"), dimension: .mass) == 0.5)
        #expect(try Units.toCanonical(Quantity(70, "kg"), dimension: .mass) == 70)
        #expect(try nearlyEqual(Units.fromCanonical(1, to: "lb", dimension: .mass), 2.2046226218487757))
        #expect(try Units.fromCanonical(1, to: "g", dimension: .mass) == 1_000)
        let pound = try Units.toCanonical(Quantity(1, "lb"), dimension: .mass)
        #expect(try nearlyEqual(Units.fromCanonical(pound, to: "g", dimension: .mass), 453.59237))
    }

    @Test func countPerTime() throws {
        #expect(try Units.toCanonical(Quantity(1, "count/s"), dimension: .countPerTime) == 60)
        #expect(try Units.toCanonical(Quantity(60, "count/h"), dimension: .countPerTime) == 1)
        #expect(try Units.toCanonical(Quantity(72, "count/min"), dimension: .countPerTime) == 72)
        #expect(try Units.fromCanonical(120, to: "count/s", dimension: .countPerTime) == 2)
        #expect(try Units.fromCanonical(1, to: "count/h", dimension: .countPerTime) == 60)
    }

    @Test func countAndPercent() throws {
        #expect(try Units.toCanonical(Quantity(1_234, "count"), dimension: .count) == 1_234)
        #expect(try Units.fromCanonical(1_234, to: "count", dimension: .count) == 1_234)
        #expect(try Units.toCanonical(Quantity(0.97, "%"), dimension: .percent) == 0.97)
        #expect(try Units.fromCanonical(0.97, to: "%", dimension: .percent) == 0.97)
    }

    @Test(arguments: UnitDimension.allCases.filter { $0 != .none })
    func everyUnitRoundTrips(_ dimension: UnitDimension) throws {
        for unit in dimension.exampleUnits {
            for value in [0, 1, 72.5, 0.001, 123_456.789, -3.5] {
                let canonical = try Units.toCanonical(Quantity(value, unit), dimension: dimension)
                let back = try Units.fromCanonical(canonical, to: unit, dimension: dimension)
                #expect(nearlyEqual(back, value), "\(value) \(unit) → \(canonical) → \(back)")
                // And canonical → unit → canonical.
                let shown = try Units.fromCanonical(value, to: unit, dimension: dimension)
                #expect(nearlyEqual(try Units.toCanonical(Quantity(shown, unit), dimension: dimension), value))
            }
        }
    }

    @Test func wrongDimensionNamesUnitDimensionAndAllowedUnits() {
        let mass = invalidArgumentMessage { _ = try Units.toCanonical(Quantity(5, "kg"), dimension: .length) }
        #expect(mass == "unit \"kg\" is a mass unit, but the value takes length units (such as m, km, cm, mi, ft, in, yd)")
        let energy = invalidArgumentMessage { _ = try Units.toCanonical(Quantity(5, "cal/min"), dimension: .energy) }
        #expect(energy == "unit \"cal/min\" is a power unit, but the value takes energy units (such as kcal, Cal, kJ, cal, J)")
        let rate = invalidArgumentMessage { _ = try Units.fromCanonical(5, to: "count", dimension: .countPerTime) }
        #expect(rate.contains("\"count\"") && rate.contains("count-per-time") && rate.contains("count/min, count/s"))
        let weight = invalidArgumentMessage { _ = try Units.fromCanonical(5, to: "lbs", dimension: .mass) }
        #expect(weight == "unit \"lbs\" is not a HealthKit unit string: unknown unit \"lbs\"")
        let odd = invalidArgumentMessage { _ = try Units.fromCanonical(5, to: "m^3/kg", dimension: .mass) }
        #expect(odd.contains("\"m^3/kg\" is of another dimension") && odd.contains("mass units"))
        let none = invalidArgumentMessage { _ = try Units.toCanonical(Quantity(1, "count"), dimension: .none) }
        #expect(none.contains("\"count\""))
    }

    @Test func resolveResultUnit() throws {
        #expect(try Units.resolveResultUnit("", dimension: .length) == "m")
        #expect(try Units.resolveResultUnit("", dimension: .countPerTime) == "count/min")
        #expect(try Units.resolveResultUnit("", dimension: .none) == "")
        #expect(try Units.resolveResultUnit("mi", dimension: .length) == "mi")
        #expect(try Units.resolveResultUnit("kJ", dimension: .energy) == "kJ")
        #expect(invalidArgumentMessage { _ = try Units.resolveResultUnit("kcal", dimension: .mass) }.contains("\"kcal\""))
        #expect(invalidArgumentMessage { _ = try Units.resolveResultUnit("m", dimension: .none) }.contains("\"m\""))
    }
}
