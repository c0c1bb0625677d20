import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory from mkdtemp under /tmp, removed with everything in it by `remove()`.
struct TemporaryDirectory {
    /// The directory's absolute path.
    let path: String

    /// Creates a new, empty directory.
    init() {
        var template = Array("/tmp/broker-store-tests.XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let created else { preconditionFailure("mkdtemp failed: errno \(errno)") }
        path = String(cString: created)
    }

    /// `path` + "/" + `name`.
    func child(_ name: String) -> String { path + "/" + name }

    /// Deletes the directory tree.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The permission bits of `path`, or nil if it does not exist.
func permissionBits(_ path: String) -> mode_t? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o777
}

/// Writes `bytes` to a new file at `path` with `mode`.
func writeFile(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode)
    precondition(descriptor >= 0, "cannot create \(path)")
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    chmod(path, mode)
}

/// Lower-case hex of `bytes`.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}
