@testable import BrokerModel
@testable import BrokerPolicy
import Testing

/// HealthKit unit strings: parsing, dimensions and conversions against a table worked out by hand.
@Suite("HealthUnit")
struct HealthUnitTests {
    /// One conversion: `value` `unit` of `type` is `expected` in `target` (same type).
    struct Conversion: CustomTestStringConvertible, Sendable {
        let type: ObjectType
        let value: Double
        let unit: String
        let expected: Double
        let target: String
        var testDescription: String { "\(value) \(unit) = \(expected) \(target)" }
    }

    static let table: [Conversion] = [
        Conversion(type: .bloodGlucose, value: 5.5, unit: "mmol<180.15588>/L", expected: 99.085734, target: "mg/dL"),
        Conversion(type: .bloodGlucose, value: 5.5, unit: "mmol/L", expected: 99.085734, target: "mg/dL"),
        Conversion(type: .bloodGlucose, value: 100, unit: "mg/dL", expected: 1, target: "g/L"),
        Conversion(type: .bodyTemperature, value: 98.6, unit: "degF", expected: 37, target: "degC"),
        Conversion(type: .bodyTemperature, value: 310.15, unit: "K", expected: 37, target: "degC"),
        Conversion(type: .bodyTemperature, value: -40, unit: "degC", expected: -40, target: "degF"),
        Conversion(type: .dietaryWater, value: 1, unit: "fl_oz_us", expected: 29.5735295625, target: "mL"),
        Conversion(type: .dietaryWater, value: 1, unit: "fl_oz_imp", expected: 28.4130625, target: "mL"),
        Conversion(type: .dietaryWater, value: 2, unit: "cup_us", expected: 1, target: "pt_us"),
        Conversion(type: .dietaryWater, value: 1.5, unit: "L", expected: 1_500, target: "mL"),
        Conversion(type: .distanceWalkingRunning, value: 1, unit: "mi", expected: 1_609.344, target: "m"),
        Conversion(type: .distanceWalkingRunning, value: 1, unit: "mi", expected: 1_760, target: "yd"),
        Conversion(type: .distanceWalkingRunning, value: 12, unit: "in", expected: 1, target: "ft"),
        Conversion(type: .height, value: 180, unit: "cm", expected: 1.8, target: "m"),
        Conversion(type: .dietaryEnergyConsumed, value: 1, unit: "Cal", expected: 1, target: "kcal"),
        Conversion(type: .dietaryEnergyConsumed, value: 1_000, unit: "cal", expected: 1, target: "kcal"),
        Conversion(type: .activeEnergyBurned, value: 4.184, unit: "kJ", expected: 1, target: "kcal"),
        Conversion(type: .dietaryVitaminD, value: 1, unit: "mg", expected: 1_000, target: "mcg"),
        Conversion(type: .dietaryVitaminD, value: 1, unit: "µg", expected: 1, target: "mcg"),
        Conversion(type: .dietaryProtein, value: 1, unit: "oz", expected: 28.349523125, target: "g"),
        Conversion(type: .bodyMass, value: 1, unit: "st", expected: 14, target: "lb"),
        Conversion(type: .bodyMass, value: 1, unit: "lb", expected: 0.45359237, target: "kg"),
        Conversion(type: .bloodPressureSystolic, value: 1, unit: "atm", expected: 760, target: "mmHg"),
        Conversion(type: .bloodPressureSystolic, value: 120, unit: "mmHg", expected: 15.998686, target: "kPa"),
        Conversion(type: .bloodPressureSystolic, value: 10, unit: "cmAq", expected: 7.355592, target: "mmHg"),
        Conversion(type: .heartRate, value: 1, unit: "Hz·count", expected: 60, target: "count/min"),
        Conversion(type: .heartRate, value: 1, unit: "count/s", expected: 60, target: "count/min"),
        Conversion(type: .heartRate, value: 3_600, unit: "count/hr", expected: 60, target: "count/min"),
        Conversion(type: .respiratoryRate, value: 0.25, unit: "count·s^-1", expected: 15, target: "count/min"),
        Conversion(type: .heartRateVariabilitySDNN, value: 0.05, unit: "s", expected: 50, target: "ms"),
        Conversion(type: .appleExerciseTime, value: 1.5, unit: "hr", expected: 90, target: "min"),
        Conversion(type: .appleExerciseTime, value: 1, unit: "d", expected: 1_440, target: "min"),
        Conversion(type: .walkingSpeed, value: 3.6, unit: "km/hr", expected: 1, target: "m/s"),
        Conversion(type: .walkingSpeed, value: 1, unit: "mi/hr", expected: 0.44704, target: "m/s"),
        Conversion(type: .vO2Max, value: 40, unit: "mL/(kg·min)", expected: 40, target: "mL/kg·min"),
        Conversion(type: .vO2Max, value: 40, unit: "mL/min·kg", expected: 40, target: "mL/kg*min"),
        Conversion(type: .vO2Max, value: 0.04, unit: "L/kg/min", expected: 40, target: "mL/kg·min"),
        Conversion(type: .peakExpiratoryFlowRate, value: 1, unit: "L/s", expected: 60, target: "L/min"),
        Conversion(type: .cyclingPower, value: 1, unit: "kW", expected: 1_000, target: "W"),
        Conversion(type: .cyclingPower, value: 1, unit: "J/s", expected: 1, target: "W"),
        Conversion(type: .electrodermalActivity, value: 1, unit: "S", expected: 1_000_000, target: "mcS"),
        Conversion(type: .physicalEffort, value: 1, unit: "kcal/(hr·kg)", expected: 1, target: "kcal/hr·kg"),
        Conversion(type: .environmentalAudioExposure, value: 70, unit: "dBASPL", expected: 70, target: "dBASPL"),
        Conversion(type: .insulinDelivery, value: 4, unit: "IU", expected: 4, target: "IU"),
        Conversion(type: .bodyFatPercentage, value: 0.2, unit: "%", expected: 0.2, target: "%"),
        Conversion(type: .walkingSpeed, value: 1, unit: "m·s^-1", expected: 1, target: "m/s"),
        Conversion(type: .forcedVitalCapacity, value: 1, unit: "dm^3", expected: 1, target: "L"),
        Conversion(type: .forcedVitalCapacity, value: 1, unit: "m^3", expected: 1_000, target: "L"),
    ]

    @Test(arguments: table)
    func converts(_ conversion: Conversion) throws {
        let descriptor = try #require(TypeCatalogue.descriptor(for: conversion.type))
        let from = try UnitConverter(conversion.unit, for: descriptor)
        let to = try UnitConverter(conversion.target, for: descriptor)
        let result = to.fromCanonical(from.toCanonical(conversion.value))
        #expect(nearlyEqual(result, conversion.expected, tolerance: 1e-6), "got \(result)")
        // And back.
        let back = from.fromCanonical(to.toCanonical(conversion.expected))
        #expect(nearlyEqual(back, conversion.value, tolerance: 1e-6), "back: \(back)")
    }

    @Test func glucoseRoundsToTheLabValue() throws {
        let descriptor = try #require(TypeCatalogue.descriptor(for: .bloodGlucose))
        let milligrams = try UnitConverter("mmol<180.15588>/L", for: descriptor).toCanonical(5.5)
        #expect((milligrams * 100).rounded() / 100 == 99.09)
    }

    @Test func exactWhereTheOldTableWasExact() throws {
        #expect(try Units.toCanonical(Quantity(4.184, "kJ"), dimension: .energy) == 1)
        #expect(try Units.toCanonical(Quantity(1, "count/s"), dimension: .countPerTime) == 60)
        #expect(try Units.toCanonical(Quantity(1, "lb"), dimension: .mass) == 0.45359237)
        #expect(try Units.toCanonical(Quantity(1, "mi"), dimension: .length) == 1_609.344)
        #expect(try Units.toCanonical(Quantity(500, "g"), dimension: .mass) == 0.5)
    }

    @Test(arguments: [
        ("", "it is empty"), ("furlong", "unknown unit \"furlong\""), ("m/", "a unit is missing at the end"),
        ("(m/s", "\"(\" is not closed"), ("m^0", "exponent"), ("m^x", "exponent"), ("m s", "unknown unit \"m s\""),
        ("mol<abc>", "unknown unit"), ("mol<-1>", "unknown unit"), ("kmin", "unknown unit \"kmin\""), ("m)", "unexpected \")\""),
    ])
    func refusesWhatIsNotAUnit(_ text: String, _ detail: String) {
        let message = invalidArgumentMessage { _ = try HealthUnit(parsing: text) }
        #expect(message.hasPrefix("unit \"\(text)\" is not a HealthKit unit string"), "\(message)")
        #expect(message.contains(detail), "\(message)")
    }

    @Test func prefixesAreNotSplitOffNamesOfTheirOwn() throws {
        // min is minutes (not milli-inches), mi miles, d days, mmHg and cmAq pressures, dBASPL a level.
        #expect(try HealthUnit(parsing: "min").dimension == .time)
        #expect(try HealthUnit(parsing: "mi").dimension == .length)
        #expect(try HealthUnit(parsing: "d").dimension == .time)
        #expect(try HealthUnit(parsing: "dL").dimension == .volume)
        #expect(try HealthUnit(parsing: "mmHg").dimension == .pressure)
        #expect(try HealthUnit(parsing: "cmAq").dimension == .pressure)
        #expect(try HealthUnit(parsing: "dBASPL").dimension == .soundPressureLevel)
        #expect(try HealthUnit(parsing: "dBHL").dimension == .hearingLevel)
        #expect(try HealthUnit(parsing: "lx").exponents == .base(.illuminance))
        #expect(try HealthUnit(parsing: "mV").exponents == HealthUnit(parsing: "W/A").exponents)
    }

    @Test func wrongDimensionForATypeIsInvalidArgumentNamingUnitAndType() throws {
        let glucose = try #require(TypeCatalogue.descriptor(for: .bloodGlucose))
        let message = invalidArgumentMessage { _ = try UnitConverter("mmHg", for: glucose) }
        #expect(message == "unit \"mmHg\" is a pressure unit, but HKQuantityTypeIdentifierBloodGlucose takes mass-per-volume units (such as mg/dL, g/L)")
        // Without a molar mass, mol-based units stay amounts of substance: not a concentration by mass.
        let calcium = try #require(TypeCatalogue.descriptor(for: .dietaryCalcium))
        #expect(invalidArgumentMessage { _ = try UnitConverter("mmol", for: calcium) }.contains("HKQuantityTypeIdentifierDietaryCalcium takes mass units"))
        // A temperature inside a compound unit has no offset, and is not a temperature.
        let body = try #require(TypeCatalogue.descriptor(for: .bodyTemperature))
        #expect(invalidArgumentMessage { _ = try UnitConverter("degC/min", for: body) }.contains("another dimension"))
    }

    @Test func saveConvertsToTheTypesCanonicalUnit() throws {
        let sample = Sample(uuid: "0e8f2a9c-6a2b-4c1e-9a51-3a1f6b2c7d10", type: .bloodGlucose, startMicros: 0, endMicros: 0,
                            value: .quantity(Quantity(5.5, "mmol/L")))
        let saved = try SampleValidator.validate([sample], earliestPermitted: .min)
        guard case .quantity(let stored) = saved[0].value else { Issue.record("not a quantity"); return }
        #expect(stored.unit == "mg/dL")
        #expect(nearlyEqual(stored.value, 99.085734, tolerance: 1e-6))
        let wrong = Sample(uuid: "0e8f2a9c-6a2b-4c1e-9a51-3a1f6b2c7d11", type: .bodyTemperature, startMicros: 0, endMicros: 0,
                           value: .quantity(Quantity(37, "kg")))
        let message = invalidArgumentMessage { _ = try SampleValidator.validate([wrong], earliestPermitted: .min) }
        #expect(message.contains("\"kg\"") && message.contains("HKQuantityTypeIdentifierBodyTemperature takes temperature units"))
    }
}
