/// The value sets of catalogued types: category values, characteristic values, correlation members.
extension TypeCatalogue {
    /// The values `type` takes when it is a category type (empty otherwise), in raw-value order of the catalogue.
    public static func categoryValues(of type: ObjectType) -> [CategoryValueName] {
        categoryValueTable[type] ?? []
    }

    /// The values a characteristic with a fixed set takes (`female`, `A+`, …); empty for date of birth and non-characteristics.
    public static func characteristicValues(of type: ObjectType) -> [String] {
        characteristicValueTable[type] ?? []
    }

    /// The quantity types a correlation type may hold (systolic and diastolic for blood pressure); empty otherwise.
    public static func correlationMembers(of type: ObjectType) -> [ObjectType] {
        correlationMemberTable[type] ?? []
    }
}
