import CVips
import Foundation

/// Gives each input its own libvips error message, although libvips keeps one error buffer for
/// the whole process.
///
/// With several photos read at once (`batch --jobs 2`), the messages of one photo's loader land
/// in the same buffer as another's, and a failure read the lot: "corrupt.jpg: damaged (heic.heic:
/// bad seek…; VipsJpeg: Premature end…)". Messages cannot be told apart once written, and
/// libvips writes them from its worker threads, so no per-thread buffer can catch them. Instead,
/// inputs are read side by side under a shared lock; one that fails is read once more under the
/// exclusive lock, with no other input being read, and that second failure's message is its own.
/// A damaged file fails the same way twice, so the cost is one more read of a bad file.
public enum InputErrors {
    private static let lock = ReadWriteLock()

    /// Runs `read` (opening, checking or decoding one input); a `VipsError` it throws carries
    /// messages of this input only.
    public static func attributed<T>(_ read: () throws -> T) throws -> T {
        do {
            return try lock.reading(read)
        } catch is VipsError {
            return try lock.writing {
                // Text other inputs left before this point is not this input's.
                _ = VipsError.takeFromLibvips(operation: "")
                return try read()
            }
        }
    }
}

/// A POSIX reader-writer lock: many readers at once, or one writer.
final class ReadWriteLock: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() { pthread_rwlock_init(lock, nil) }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func reading<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func writing<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
