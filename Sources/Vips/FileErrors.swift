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
///
/// Every other libvips call that can fail (an operation built, pixels computed) takes the shared
/// lock too (`beside`): an operation failing elsewhere during a file's second try took that
/// file's message from the buffer, or added its own to it (a test suite's deliberate failures,
/// running beside `FileErrorsTests`, once left a damaged photo's reason empty).
public enum FileErrors {
    private static let lock = ReadWriteLock()

    /// Runs `access` (opening, checking, decoding or writing one file); a `VipsError` it throws
    /// carries messages of this file only. Within another file's access, as part of it.
    public static func attributed<T>(_ access: () throws -> T) throws -> T {
        if sk_file_errors_depth() > 0 { return try access() }
        do {
            return try lock.reading { try inside(access) }
        } catch is VipsError {
            return try lock.writing {
                // Text other files left before this point is not this file's.
                _ = VipsError.takeFromLibvips(operation: "")
                return try inside(access)
            }
        }
    }

    /// Runs `call`, a libvips call that may fail and write its message to the shared buffer,
    /// beside files being read and written but never during a file's second try. Within a
    /// file's access, as part of it.
    static func beside<T>(_ call: () throws -> T) rethrows -> T {
        if sk_file_errors_depth() > 0 { return try call() }
        return try lock.reading { try inside(call) }
    }

    /// `body` with the calling thread marked as within a section (the lock is not taken again:
    /// a second shared lock on one thread waits behind a waiting writer).
    private static func inside<T>(_ body: () throws -> T) rethrows -> T {
        sk_file_errors_depth_add(1)
        defer { sk_file_errors_depth_add(-1) }
        return try body()
    }
}

/// A POSIX reader-writer lock: many readers at once, or one writer. Writer-preferring (a file's
/// second try is not starved by the calls beside it), so a thread must not take it twice.
final class ReadWriteLock: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

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
