import Foundation

/// A tmpfs of a few hundred kilobytes, to run out of space on purpose, or mounted read-only to
/// refuse every write even to root (mounting needs root).
public struct TinyDisk {
    public let path: String

    public static let available: Bool = {
        guard getuid() == 0, let disk = try? TinyDisk(kilobytes: 64) else { return false }
        disk.unmount()
        return true
    }()

    public init(kilobytes: Int, readOnly: Bool = false) throws {
        path = try TestAssets.temporaryFolder("tinydisk")
        let mount = try ChildProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k" + (readOnly ? ",ro" : ""), "tmpfs", path],
                                     output: .null, error: .null)
        guard mount.wait(timeout: 30) == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }

    public func unmount() {
        (try? ChildProcess("/bin/umount", [path], output: .null, error: .null))?.wait(timeout: 30)
    }
}

/// A folder nobody can write into: a read-only tmpfs as root (who ignores permissions),
/// otherwise a folder without write permission.
public struct ReadOnlyFolder {
    public let path: String
    private let disk: TinyDisk?

    public static var available: Bool { getuid() != 0 || TinyDisk.available }

    public init() throws {
        if getuid() == 0 {
            disk = try TinyDisk(kilobytes: 64, readOnly: true)
            path = disk!.path
        } else {
            disk = nil
            path = try TestAssets.temporaryFolder("readonly")
            chmod(path, 0o555)
        }
    }

    public func release() {
        if let disk { disk.unmount() } else { chmod(path, 0o755) }
    }
}
