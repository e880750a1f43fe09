import CVips
import Synchronization

/// Starts libvips exactly once, on first use of any image.
enum VipsRuntime {
    /// libvips' error buffer is process-global; every read-and-clear goes through this lock.
    static let errorBufferLock = Mutex<Void>(())

    private static let started: Bool = {
        sk_vips_start("sketchease") == 0
    }()

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
