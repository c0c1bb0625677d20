/// A rollup row's type code and hour (the app is the writer's).
struct RollupKey: Hashable, Comparable {
    let type: Int64
    let hour: Int64

    static func < (a: RollupKey, b: RollupKey) -> Bool { (a.type, a.hour) < (b.type, b.hour) }
}
