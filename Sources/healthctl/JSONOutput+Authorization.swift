import BrokerModel

extension JSONOutput {
    /// An app's grants as an array of objects (`[]` when none).
    static func grants(_ grants: [Grant]) -> String {
        grants.isEmpty ? "[]" : encode(grants.map(GrantJSON.init))
    }

    /// One type's grants across apps, as an array of grant objects with `app_id` (`[]` when none).
    static func typeGrants(_ rows: [(appID: String, grant: Grant)]) -> String {
        rows.isEmpty ? "[]" : encode(rows.map { GrantJSON($0.grant, appID: $0.appID) })
    }

    /// The grant `grants set` recorded, as one grant object with `app_id`.
    static func grantSet(appID: String, grant: Grant) -> String {
        encode(GrantJSON(grant, appID: appID))
    }

    /// `{"app_id": …, "revoked": N, "types": […]}`.
    static func revocation(appID: String, types: [ObjectType], revoked: UInt32) -> String {
        encode(RevocationJSON(appID: appID, types: types.map(\.identifier), revoked: revoked))
    }

    /// Every source as an array of objects (`[]` when none).
    static func sources(_ sources: [Source]) -> String {
        sources.isEmpty ? "[]" : encode(sources.map(SourceJSON.init))
    }

    /// A type's source order: `{"type": ID, "app_ids": [...]}`, best first.
    static func sourcePriority(type: ObjectType, appIDs: [String]) -> String {
        encode(SourcePriorityJSON(type: type.identifier, appIDs: appIDs))
    }

    /// The type catalogue as an array of objects.
    static func types(_ descriptors: [TypeDescriptor]) -> String {
        encode(descriptors.map(TypeJSON.init))
    }

    /// An explanation as one object.
    static func explanation(appID: String, type: ObjectType, _ explanation: Explanation) -> String {
        encode(ExplanationJSON(appID: appID, type: type, explanation: explanation))
    }

    /// `{"type": …, "value": … or null}`.
    static func characteristic(_ type: ObjectType, value: String?) -> String {
        encode(CharacteristicJSON(type: type.identifier, value: value))
    }
}
