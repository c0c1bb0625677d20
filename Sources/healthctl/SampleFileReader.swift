import BrokerModel

/// Reads an import file in batches: every line of a batch is parsed before any of it is sent.
final class SampleFileReader {
    private let lines: LineReader
    private let format: SampleFileFormat
    private let jsonParser = JSONLineParser()
    private var csvParser: CSVSampleParser?
    /// The first line of the batch being read (or read last).
    private(set) var batchFirstLine = 1

    /// A reader of `lines` in `format`.
    init(lines: LineReader, format: SampleFileFormat) {
        self.lines = lines
        self.format = format
    }

    /// The next batch of up to `size` samples; nil at the end of the file. Blank lines are skipped.
    ///
    /// A UUID repeated inside the batch with the same content is dropped (counted in `repeats`);
    /// with other content it is an error naming both lines.
    func nextBatch(size: Int) throws(SampleFileError) -> ImportBatch? {
        batchFirstLine = lines.lineNumber + 1
        var batch = ImportBatch(firstLine: batchFirstLine)
        var seen: [String: Int] = [:]
        while batch.samples.count < size, let text = lines.next() {
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let sample: Sample
            do throws(SampleLineError) {
                guard let parsed = try parse(text) else { continue }
                sample = parsed
            } catch {
                throw SampleFileError(line: lines.lineNumber, message: error.message)
            }
            let key = sample.uuid.lowercased()
            if let earlier = seen[key] {
                guard batch.samples[earlier] == sample else {
                    throw SampleFileError(line: lines.lineNumber, message: "uuid \(sample.uuid) is also on line \(batch.lines[earlier]), with other content")
                }
                batch.repeats += 1
                continue
            }
            seen[key] = batch.samples.count
            batch.samples.append(sample)
            batch.lines.append(lines.lineNumber)
        }
        if lines.failed { throw SampleFileError(line: lines.lineNumber + 1, message: "read error") }
        return batch.samples.isEmpty && batch.repeats == 0 ? nil : batch
    }

    /// The sample on one line; nil for the CSV header.
    private func parse(_ text: String) throws(SampleLineError) -> Sample? {
        switch format {
        case .jsonl:
            return try jsonParser.sample(from: text)
        case .csv:
            guard let csvParser else {
                csvParser = try CSVSampleParser(header: text)
                return nil
            }
            return try csvParser.sample(from: text)
        case .appleHealth:
            throw SampleLineError("an Apple Health export is not read line by line")
        }
    }
}
