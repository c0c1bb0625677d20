#if canImport(Glibc)
import Glibc
#endif

/// A file's device and inode: what names one file however it is reached.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
