import CVips
import Foundation

/// Gives each file read or written its own libvips error message, although libvips keeps one
/// error buffer for the whole process.
///
/// With several photos read at once (`batch --jobs 2`), the messages of one photo's loader land
/// in the same buffer as another's, and a failure read the lot: "corrupt.jpg: damaged (heic.heic:
/// bad seek…; VipsJpeg: Premature end…)". A photo written at the same time leaves its messages
/// there too ("write error; No space left on device" once came back as a damaged photo's reason).
/// Messages cannot be told apart once written, and libvips writes them from its worker threads,
/// so no per-thread buffer can catch them. Instead, files are read and written side by side under
/// a shared lock; one that fails is read or written once more under the exclusive lock, with no
/// other file being read or written, and that second failure's message is its own. A damaged or
/// unwritable file fails the same way twice, so the cost is one more try at a bad file.
public enum FileErrors {
    private static let lock = ReadWriteLock()

    /// Runs `access` (opening, checking, decoding or writing one file); a `VipsError` it throws
    /// carries messages of this file only.
    public static func attributed<T>(_ access: () throws -> T) throws -> T {
        do {
            return try lock.reading(access)
        } catch is VipsError {
            return try lock.writing {
                // Text other files left before this point is not this file's.
                _ = VipsError.takeFromLibvips(operation: "")
                return try access()
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
