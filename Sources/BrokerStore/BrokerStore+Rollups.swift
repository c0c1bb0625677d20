import BrokerModel

extension BrokerStore {
    /// The `broker_meta` key set while rollups are not kept (`RollupMode.off`).
    static let staleRollupsKey = "rollups_stale"

    /// At open: marks the rollups stale when this run will not keep them, and rebuilds stale ones
    /// from the samples (one transaction) when it will.
    static func settleRollups(_ database: Database, meta: MetaTable, mode: RollupMode) throws(BrokerError) {
        let stale = try meta.value(staleRollupsKey) != nil
        if !mode.maintains {
            if !stale { try meta.setValue(staleRollupsKey, [1]) }
            return
        }
        guard stale else { return }
        try database.transaction { () throws(BrokerError) in
            try database.execute("DELETE FROM hour_rollups")
            try database.execute(BrokerSchema.rebuildRollups)
            try database.execute("DELETE FROM broker_meta WHERE key = '\(staleRollupsKey)'")
        }
    }

    /// Adds the quantity rows `saved` (indexes into `rows`, just inserted for `appCode`) to their
    /// hours' rollups, inside the caller's transaction: one upsert per (type, hour) of the batch.
    func addToRollups(_ rows: SampleTable.NewRows, saved: [Int], appCode: Int64) throws(BrokerError) {
        guard rollupMode.maintains else { return }
        var groups: [RollupKey: [HourRollupTable.Item]] = [:]
        var lastKey: RollupKey?
        var run: [HourRollupTable.Item] = []
        // Batches are mostly in time order: consecutive samples of one hour gather in `run`.
        for index in saved where rows.contents[index].kind == SampleContent.quantityKind {
            guard let value = rows.contents[index].quantity else { continue }
            let sample = rows.samples[index]
            let key = RollupKey(type: rows.typeCodes[index], hour: HourRollupTable.hour(of: sample.startMicros))
            if key != lastKey {
                if let lastKey { groups[lastKey, default: []].append(contentsOf: run) }
                run.removeAll(keepingCapacity: true)
                lastKey = key
            }
            run.append(HourRollupTable.Item(start: sample.startMicros, end: sample.endMicros, value: value))
        }
        if let lastKey { groups[lastKey, default: []].append(contentsOf: run) }
        for key in groups.keys.sorted() {
            guard let items = groups[key], let row = HourRollupTable.row(hour: key.hour, app: appCode, items: items) else { continue }
            try sampleTable.rollups.add(row, firstStart: items.lazy.map(\.start).min() ?? .min, typeCode: key.type)
        }
    }

    /// Rebuilds the rollups of the hours the deleted rows of `appCode` started in, inside the caller's transaction.
    func removeFromRollups(_ deleted: [DeletedSample], appCode: Int64) throws(BrokerError) {
        guard rollupMode.maintains else { return }
        var keys = Set<RollupKey>()
        for sample in deleted {
            guard let typeCode = try sampleTable.types.code(of: sample.type.identifier) else { continue }
            keys.insert(RollupKey(type: typeCode, hour: HourRollupTable.hour(of: sample.startMicros)))
        }
        for key in keys.sorted() {
            try sampleTable.rollups.recompute(typeCode: key.type, appCode: appCode, hour: key.hour)
        }
    }
}
