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
    ///
    /// The rows are summed up in one pass (`RollupAccumulator`: no array of items per hour, no
    /// copy of a `Sample`); only an hour whose rows came out of start order has its items gathered
    /// again, for its coverage.
    func addToRollups(_ rows: SampleTable.NewRows, saved: [Int], appCode: Int64) throws(BrokerError) {
        guard rollupMode.maintains else { return }
        var accumulator = RollupAccumulator(app: appCode)
        rows.samples.withUnsafeBufferPointer { samples in
            rows.contents.withUnsafeBufferPointer { contents in
                for index in saved where contents[index].kind == SampleContent.quantityKind {
                    guard let value = contents[index].quantity else { continue }
                    accumulator.add(type: rows.typeCodes[index], start: samples[index].startMicros, end: samples[index].endMicros, value: value)
                }
            }
        }
        var slots = accumulator.slots
        if slots.contains(where: { !$0.ordered }) {
            var unordered: [RollupKey: [HourRollupTable.Item]] = [:]
            for slot in slots where !slot.ordered { unordered[slot.key] = [] }
            for index in saved where rows.contents[index].kind == SampleContent.quantityKind {
                guard let value = rows.contents[index].quantity else { continue }
                let start = rows.samples[index].startMicros
                let key = RollupKey(type: rows.typeCodes[index], hour: HourRollupTable.hour(of: start))
                guard unordered[key] != nil else { continue }
                unordered[key]?.append(HourRollupTable.Item(start: start, end: rows.samples[index].endMicros, value: value))
            }
            for position in slots.indices where !slots[position].ordered {
                slots[position].row.covered = HourRollupTable.coverage(of: unordered[slots[position].key] ?? [], hour: slots[position].key.hour)
            }
        }
        slots.sort { $0.key < $1.key }
        for slot in slots {
            try sampleTable.rollups.add(slot.row, firstStart: slot.firstStart, typeCode: slot.key.type)
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
