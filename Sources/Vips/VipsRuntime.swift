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

    /// Limits libvips' operation cache (recent operations and their results, kept for reuse).
    /// A batch never repeats an operation, so there it only holds memory; 0 turns it off.
    public static func setOperationCacheSize(_ operations: Int) throws {
        try ensureStarted()
        vips_cache_set_max(Int32(operations))
    }

    /// Hands memory freed by finished images back to the system, so a long run's footprint
    /// stays that of one image (glibc otherwise keeps freed blocks in per-thread arenas).
    public static func releaseFreedMemory() {
        sk_release_free_memory()
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
