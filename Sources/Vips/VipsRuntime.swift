import CVips
import Foundation
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

    /// From now on, memory freed by finished images stays with the process for the next
    /// image to reuse instead of going back to the system block by block: memory handed back
    /// and taken again costs a page fault per 4 KiB. Pair it with `releaseFreedMemory` between
    /// images, which decides when memory goes back.
    public static func keepFreedMemoryForReuse() throws {
        try ensureStarted()
        sk_keep_freed_memory()
    }

    /// Hands memory freed by finished images back to the system if this process holds more
    /// than `limit` bytes in RAM; below that, it stays for the next image. Returns whether it
    /// handed memory back.
    @discardableResult
    public static func releaseFreedMemory(ifResidentAbove limit: Int) -> Bool {
        guard let resident = residentMemory(), resident <= limit else {
            sk_release_free_memory()
            return true
        }
        return false
    }

    /// The bytes of this process's memory that are in RAM (its resident set), from
    /// /proc/self/statm; nil where that cannot be read.
    public static func residentMemory() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
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
