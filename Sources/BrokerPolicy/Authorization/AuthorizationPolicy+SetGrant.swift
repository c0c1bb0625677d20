public import BrokerModel

extension AuthorizationPolicy {
    /// Validates a decision the operator sets directly (AdminSetGrant) at `now`: at least one part;
    /// a known type; for a characteristic type no share part and no limited read; a limited date
    /// from the epoch up to `now`. Every problem → INVALID_ARGUMENT, all reported in one message.
    ///
    /// The rules are the consent path's: a prompt never asks to share a characteristic
    /// (`validateRequest`), and a limited date in the future is refused as `completeAnswer` refuses
    /// it. A limited read of a characteristic is refused here too, rather than recorded as an
    /// unexplained full read: a characteristic has no date, so "from D" would mean nothing.
    public static func validateSetGrant(_ decision: TypeDecision, now: Int64) throws(BrokerError) {
        let type = decision.type
        guard let descriptor = try TypeCatalogue.validate([type], field: "type").first else {
            preconditionFailure("validate returned no descriptor for one type")
        }
        var problems: [String] = []
        if decision.share == nil && decision.read == nil {
            problems.append("no decision to set for \(type.identifier): give a share or a read decision (AdminRevoke forgets one)")
        }
        if descriptor.isCharacteristic && decision.share != nil {
            problems.append("share: the characteristic type \(type.identifier) cannot be shared (it is read only)")
        } else if descriptor.kind == .correlation {
            problems.append("the correlation type \(type.identifier) is authorized through its member types, not itself")
        } else if !descriptor.canShare && decision.share != nil {
            problems.append("share: apps may not share \(type.identifier) (only HealthKit writes it)")
        }
        if case .limited(let from)? = decision.read {
            if descriptor.isCharacteristic {
                problems.append("read: a limited read means nothing for the characteristic type \(type.identifier) (it has no date): set full or deny")
            }
            if from < 0 { problems.append("read: limited read date before 1970-01-01T00:00:00Z (negative)") }
            if from > now { problems.append("read: limited read date \(ISODate.format(from)) is in the future (after now, \(ISODate.format(now)))") }
        }
        if !problems.isEmpty { throw .invalidArgument(problems.joined(separator: "; ")) }
    }
}
