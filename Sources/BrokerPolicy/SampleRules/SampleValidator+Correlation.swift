import BrokerModel

extension SampleValidator {
    /// A correlation's objects checked and normalised: at least one, each a sample of one of the
    /// correlation type's member types (blood pressure: exactly one systolic and one diastolic),
    /// valid on its own, lying within the correlation's start and end. Errors name "objects[i]".
    ///
    /// Members lie within the correlation so that a member a reader may see (its end at or after a
    /// limited date) always belongs to a correlation ending at or after that date too.
    static func normalisedCorrelation(_ sample: Sample, descriptor: TypeDescriptor, earliestPermitted: Int64) throws(BrokerError) -> SampleValue {
        guard case .correlation(let members) = sample.value else {
            throw .invalidArgument("\(descriptor.type.identifier) is a correlation type but the value is \(kindName(of: sample.value))")
        }
        if members.isEmpty { throw .invalidArgument("a correlation holds at least one object") }
        if members.count > maxCorrelationObjects {
            throw .invalidArgument("a correlation holds at most \(maxCorrelationObjects) objects (this one has \(members.count))")
        }
        let allowed = TypeCatalogue.correlationMembers(of: descriptor.type)
        var normalised: [Sample] = []
        normalised.reserveCapacity(members.count)
        for (index, member) in members.enumerated() {
            do throws(BrokerError) {
                if case .correlation = member.value { throw .invalidArgument("a correlation's object cannot be a correlation") }
                guard allowed.contains(member.type) else {
                    let names = allowed.count <= 4 ? allowed.map(\.identifier).joined(separator: ", ") : "its dietary types"
                    throw .invalidArgument(
                        "\(MessageText.clipped(member.type.identifier)) is not a member type of \(descriptor.type.identifier) (it takes \(names))")
                }
                var checked = try normalise(member, earliestPermitted: earliestPermitted)
                if checked.startMicros < sample.startMicros || checked.endMicros > sample.endMicros {
                    throw .invalidArgument("lies outside the correlation's start and end")
                }
                checked.sourceAppID = ""
                checked.createdMicros = 0
                normalised.append(checked)
            } catch {
                throw .invalidArgument("objects[\(index)]: \(error.message)")
            }
        }
        if descriptor.type == .bloodPressure {
            let types = normalised.map(\.type)
            guard types.count == 2, types.contains(.bloodPressureSystolic), types.contains(.bloodPressureDiastolic) else {
                throw .invalidArgument("a blood pressure correlation holds one systolic and one diastolic sample")
            }
        }
        return .correlation(normalised)
    }
}
