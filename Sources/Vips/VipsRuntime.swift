import CVips
import Synchronization

/// Starts libvips exactly once, on first use of any image.
public enum VipsRuntime {
    /// libvips' error buffer is process-global; every read-and-clear goes through this lock.
    static let errorBufferLock = Mutex<Void>(())

    private static let started: Bool = {
        sk_vips_start("sketchease") == 0
    }()

    /// Sets how many worker threads each libvips pipeline uses (0 = libvips' default, the
    /// number of cores). With several photos processed at once, fewer threads per photo
    /// avoid contention.
    public static func setConcurrency(_ threads: Int) throws {
        try ensureStarted()
        vips_concurrency_set(Int32(threads))
    }

    static func ensureStarted() throws {
        guard started else {
            throw VipsError(operation: "vips_init", message: "libvips failed to start")
        }
    }
}

extension Mutex where Value == Void {
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try withLock { (_: inout Void) in try body() }
    }
}
