import Foundation

/// A folder outputs are written into, checked before any work starts.
public enum OutputFolder {
    /// Creates `path` (and its parents) if missing and makes sure files can be written there,
    /// so a batch into a read-only folder fails at once, in one line naming the folder, instead
    /// of after sketching every photo. Also clears temporary files a killed run left behind.
    public static func prepare(_ path: String) throws {
        if let problem = create(path) { throw PhotoError(path: path, reason: .outputNotWritable(problem)) }
        let probe = (path as NSString).appendingPathComponent(".sketchease-probe.\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw PhotoError(path: path, reason: .outputNotWritable(String(cString: strerror(errno)).lowercased()))
        }
        close(fd)
        unlink(probe)
        ImageExporter.removeStaleTemporaries(in: path)
    }

    /// Makes the folder `path` and its parents if missing. Returns nil when the folder is there,
    /// else what stands in the way, in words a person can act on ("a file is there, not a
    /// folder", "photos/a.jpg is a file, not a folder", "permission denied").
    public static func create(_ path: String) -> String? {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            return isDirectory.boolValue ? nil : "a file is there, not a folder"
        }
        // The nearest part of the path that exists must be a folder (Foundation's own error for
        // `out.png/sub` is "NSCocoaErrorDomain error 512").
        var above = path.parentPath
        while !above.isEmpty, !fm.fileExists(atPath: above, isDirectory: &isDirectory) { above = above.parentPath }
        if !above.isEmpty, !isDirectory.boolValue { return "cannot create the folder: \(above) is a file, not a folder" }
        do {
            try fm.createDirectory(atPath: path, withIntermediateDirectories: true)
            return nil
        } catch {
            return "cannot create the folder: \(plainReason(error))"
        }
    }

    /// A file-system error in a few plain words ("permission denied", "no space left on
    /// device"), never Foundation's domain and code.
    static func plainReason(_ error: Error) -> String {
        let nsError = error as NSError
        for candidate in [nsError, nsError.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap({ $0 })
        where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code))).lowercased()
        }
        switch nsError.code {
        case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left on device"
        case NSFileWriteVolumeReadOnlyError: return "read-only file system"
        case NSFileWriteFileExistsError: return "a file is in the way"
        default: return "the file system refused it"
        }
    }
}
