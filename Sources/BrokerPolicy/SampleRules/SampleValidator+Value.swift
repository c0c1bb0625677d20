import BrokerModel

extension SampleValidator {
    /// The sample's value checked against its type and converted to canonical units.
    static func normalisedValue(_ sample: Sample, descriptor: TypeDescriptor) throws(BrokerError) -> SampleValue {
        switch (descriptor.kind, sample.value) {
        case (.quantity, .quantity(let quantity)):
            return .quantity(try canonicalQuantity(quantity, descriptor: descriptor,
                                                   nonNegative: descriptor.aggregation == .cumulative, field: "value"))
        case (.category, .category(let value)):
            try checkCategoryValue(value, of: descriptor.type)
            return .category(value)
        case (.workout, .workout(let details)):
            return .workout(try normalisedWorkout(details, spanStart: sample.startMicros, spanEnd: sample.endMicros))
        default:
            throw .invalidArgument("\(descriptor.type.identifier) is a \(descriptor.kind.rawValue) type but the value is \(kindName(of: sample.value))")
        }
    }

    /// INVALID_ARGUMENT naming the type and its allowed values when `value` is not in the type's value
    /// set (the catalogue's `HKCategoryValue…` cases); the message never repeats the value itself.
    static func checkCategoryValue(_ value: Int64, of type: ObjectType) throws(BrokerError) {
        let allowed = TypeCatalogue.categoryValues(of: type)
        if allowed.contains(where: { $0.value == value }) { return }
        let listed = allowed.map { "\($0.name) (\($0.value))" }.joined(separator: ", ")
        throw .invalidArgument("category value is not one of \(type.identifier)'s values: \(listed)")
    }

    /// Workout details checked (activity, duration within the span, energy and distance) and made canonical.
    static func normalisedWorkout(_ details: WorkoutDetails, spanStart: Int64, spanEnd: Int64) throws(BrokerError) -> WorkoutDetails {
        if details.activityType.allSatisfy(\.isWhitespace) {
            throw .invalidArgument("workout activity type is empty")
        }
        if details.durationMicros < 0 { throw .invalidArgument("workout duration is negative") }
        let (span, overflow) = spanEnd.subtractingReportingOverflow(spanStart)
        if !overflow, details.durationMicros > span {
            throw .invalidArgument("workout duration is longer than end − start")
        }
        var result = details
        if let energy = details.totalEnergy {
            result.totalEnergy = try canonicalQuantity(energy, dimension: .energy, nonNegative: true, field: "workout energy")
        }
        if let distance = details.totalDistance {
            result.totalDistance = try canonicalQuantity(distance, dimension: .length, nonNegative: true, field: "workout distance")
        }
        return result
    }

    /// `quantity` in the canonical unit of `dimension`, after checking it is finite, of that dimension and (if asked) not negative.
    static func canonicalQuantity(_ quantity: Quantity, dimension: UnitDimension, nonNegative: Bool, field: String) throws(BrokerError) -> Quantity {
        try canonicalQuantity(quantity, nonNegative: nonNegative, field: field) { () throws(BrokerError) in
            try UnitConverter(quantity.unit, dimension: dimension)
        }
    }

    /// `quantity` in `descriptor`'s canonical unit, after checking it is finite, of the type's dimension and (if asked) not negative.
    static func canonicalQuantity(_ quantity: Quantity, descriptor: TypeDescriptor, nonNegative: Bool, field: String) throws(BrokerError) -> Quantity {
        // The usual save: a finite value already in the type's canonical unit. The converter would
        // be the identity (scale 1: `value * 1 / 1` is `value`, -0.0 included) and every check
        // below would pass, so give its result without making one (Save's loop thread, PROFILE.md).
        if quantity.unit == descriptor.canonicalUnit, descriptor.dimension != .none, quantity.value.isFinite,
           !(nonNegative && quantity.value < 0) {
            return Quantity(quantity.value, descriptor.canonicalUnit)
        }
        return try canonicalQuantity(quantity, nonNegative: nonNegative, field: field) { () throws(BrokerError) in
            try UnitConverter(quantity.unit, for: descriptor)
        }
    }

    private static func canonicalQuantity(
        _ quantity: Quantity, nonNegative: Bool, field: String, converter: () throws(BrokerError) -> UnitConverter
    ) throws(BrokerError) -> Quantity {
        guard quantity.value.isFinite else { throw .invalidArgument("\(field) is not a finite number") }
        let converted: UnitConverter
        do throws(BrokerError) {
            converted = try converter()
        } catch {
            throw .invalidArgument("\(field): \(error.message)")
        }
        if nonNegative, quantity.value < 0 {
            throw .invalidArgument("\(field) is negative; a cumulative value must be ≥ 0")
        }
        let canonical = converted.toCanonical(quantity.value)
        guard canonical.isFinite else { throw .invalidArgument("\(field) is out of range") }
        return Quantity(canonical, converted.canonicalUnit)
    }

    /// "a quantity", "a category value" or "a workout", for messages.
    static func kindName(of value: SampleValue) -> String {
        switch value {
        case .quantity: "a quantity"
        case .category: "a category value"
        case .workout: "a workout"
        case .correlation: "a correlation"
        }
    }
}
