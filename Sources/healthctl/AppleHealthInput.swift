import Foundation

/// The bytes of an export's `export.xml`, as a stream: the file itself, or for `export.zip` the
/// member `apple_health_export/export.xml` inflated by Debian's `unzip -p` in a child process (no
/// temporary copy, no C library in healthctl; memory stays that of a pipe). Unchecked Sendable:
/// made on the command's task, then used only by the parsing thread.
final class AppleHealthInput: @unchecked Sendable {
    /// The member of an export.zip that holds the records.
    static let member = "apple_health_export/export.xml"
    /// The stream the parser reads.
    let stream: InputStream
    private let unzip: Process?
    private let errors: Pipe?

    /// Opens `path`: a zip when its name ends in `.zip` or it starts with a zip header, else XML.
    init(path: String) throws(CommandFailure) {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CommandFailure(["\(path): cannot read the file"])
        }
        guard Self.isZip(path) else {
            guard let stream = InputStream(fileAtPath: path) else { throw CommandFailure(["\(path): cannot open the file"]) }
            self.stream = stream
            unzip = nil
            errors = nil
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-p", path, Self.member]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CommandFailure(["\(path): cannot run /usr/bin/unzip to read the zip (\(error.localizedDescription))", "install it (apt-get install unzip), or unzip the export and import export.xml"])
        }
        // The child holds the write end; ours would keep the pipe open after the child ends.
        try? output.fileHandleForWriting.close()
        guard let stream = InputStream(fileAtPath: "/dev/fd/\(output.fileHandleForReading.fileDescriptor)") else {
            process.terminate()
            throw CommandFailure(["\(path): cannot read unzip's output"])
        }
        self.stream = stream
        self.unzip = process
        self.errors = errors
    }

    /// True when `path` names a zip: by its extension, else by its first four bytes (`PK\3\4`).
    static func isZip(_ path: String) -> Bool {
        if path.lowercased().hasSuffix(".zip") { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)) ?? Data()
        return head == Data([0x50, 0x4B, 0x03, 0x04])
    }

    /// Waits for the unzip child (blocking: call it on the parsing thread); nil when it read the
    /// member to the end, else what went wrong. Nil for a plain XML file.
    func finish() -> String? {
        guard let unzip else { return nil }
        unzip.waitUntilExit()
        guard unzip.terminationStatus != 0 else { return nil }
        let text = String(decoding: (try? errors?.fileHandleForReading.readToEnd()) ?? Data(), as: UTF8.self)
        let detail = text.split(separator: "\n").last.map(String.init) ?? "exit status \(unzip.terminationStatus)"
        return "unzip could not read \(Self.member) from the zip: \(detail.trimmingSpaces())"
    }
}
