import Foundation

/// A folder outputs are written into, checked before any work starts.
public enum OutputFolder {
    /// Creates `path` (and its parents) if missing and makes sure files can be written there,
    /// so a batch into a read-only folder fails at once, in one line naming the folder, instead
    /// of after sketching every photo. Also clears temporary files a killed run left behind.
    public static func prepare(_ path: String) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw PhotoError(path: path, reason: .outputNotWritable("a file is there, not a folder"))
        }
        do {
            try fm.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw PhotoError(path: path, reason: .outputNotWritable("cannot create the folder: \(Self.why(error))"))
        }
        let probe = (path as NSString).appendingPathComponent(".sketchease-probe.\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw PhotoError(path: path, reason: .outputNotWritable(String(cString: strerror(errno)).lowercased()))
        }
        close(fd)
        unlink(probe)
        ImageExporter.removeStaleTemporaries(in: path)
    }

    private static func why(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(code))).lowercased()
        }
        return (error as NSError).localizedDescription
    }
}
