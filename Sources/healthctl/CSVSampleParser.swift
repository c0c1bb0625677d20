import BrokerModel
import BrokerPolicy

/// Parses CSV quantity samples: a header naming the columns (`uuid,type,start,end,value,unit`), then one sample a line.
///
/// Columns may come in any order; `uuid` may be missing or empty (derived from the content) and so
/// may `unit` (the type's canonical unit). `start` and `end` are ISO-8601 UTC instants or integer
/// microseconds since the epoch.
struct CSVSampleParser {
    /// The columns every file must have.
    static let requiredColumns = ["type", "start", "end", "value"]
    /// Every column the parser knows.
    static let knownColumns = ["uuid", "type", "start", "end", "value", "unit"]

    /// Where each known column is in a row.
    let columns: [String: Int]

    /// A parser for the file whose first line is `header`.
    init(header: String) throws(SampleLineError) {
        var columns: [String: Int] = [:]
        for (index, name) in try CSVFields.split(header).enumerated() {
            let column = name.trimmingSpaces().lowercased()
            guard Self.knownColumns.contains(column) else {
                throw SampleLineError("unknown column '\(name)' in the header (expected \(Self.knownColumns.joined(separator: ",")))")
            }
            guard columns.updateValue(index, forKey: column) == nil else {
                throw SampleLineError("column '\(column)' appears twice in the header")
            }
        }
        let missing = Self.requiredColumns.filter { columns[$0] == nil }
        guard missing.isEmpty else {
            throw SampleLineError("the header lacks \(missing.joined(separator: ", ")) (expected \(Self.knownColumns.joined(separator: ",")))")
        }
        self.columns = columns
    }

    /// The sample on one data line.
    func sample(from line: String) throws(SampleLineError) -> Sample {
        try SampleBuilder.sample(from: fields(from: line))
    }

    /// The fields of one data line; only quantity types are allowed.
    func fields(from line: String) throws(SampleLineError) -> SampleFields {
        let row = try CSVFields.split(line)
        guard row.count == columns.count else {
            throw SampleLineError("\(row.count) fields; the header has \(columns.count)")
        }
        func cell(_ name: String) -> String? {
            columns[name].map { row[$0].trimmingSpaces() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let type = cell("type") else { throw SampleLineError("empty type") }
        if let known = TypeArgument.lookUp(type), let kind = TypeCatalogue.descriptor(for: known)?.kind, kind != .quantity {
            throw SampleLineError("CSV holds quantity samples only; \(TypeArgument.alias(of: known)) is a \(kind.rawValue) type (use JSON lines)")
        }
        let start = try Self.instant(cell("start"), column: "start")
        let end = try Self.instant(cell("end"), column: "end")
        guard let valueText = cell("value") else { throw SampleLineError("empty value") }
        guard let value = Double(valueText) else { throw SampleLineError("value '\(valueText)' is not a number") }
        return SampleFields(uuid: cell("uuid"), type: type, startMicros: start, endMicros: end,
                            value: .quantity(value, unit: cell("unit")))
    }

    /// An instant cell: ISO-8601 UTC text or integer microseconds since the epoch.
    static func instant(_ text: String?, column: String) throws(SampleLineError) -> Int64 {
        guard let text else { throw SampleLineError("empty \(column)") }
        if let micros = Int64(text) { return micros }
        guard text.count > 10, let micros = ISODate.parse(text) else {
            throw SampleLineError("\(column) '\(text)' is not an ISO-8601 UTC instant or integer microseconds")
        }
        return micros
    }
}
