import BrokerModel
import BrokerWire

extension HealthStore {
    /// The person's characteristics (date of birth, biological sex, blood type) among `types` that have a value.
    ///
    /// A type the app may not read and a type with no value set are both absent; a type the app never
    /// asked for is FAILED_PRECONDITION with `authorizationNotDetermined`. Values are strings such as
    /// "1990-04-01", "female" or "A+".
    public func characteristics(_ types: Set<ObjectType>) async throws(BrokerError) -> [ObjectType: String] {
        try await connection.unary(.readCharacteristics(.with { $0.types = types.wireOrder.map(\.identifier) }), timeout: Self.lookupTimeout) { response in
            if case .readCharacteristics(let read) = response { Self.characteristicValues(read.values.map(CharacteristicValue.init(proto:))) } else { nil }
        }
    }

    /// The values that are set, by type (a later value for the same type wins).
    package static func characteristicValues(_ values: [CharacteristicValue]) -> [ObjectType: String] {
        var result: [ObjectType: String] = [:]
        for item in values {
            if let value = item.value { result[item.type] = value }
        }
        return result
    }
}
