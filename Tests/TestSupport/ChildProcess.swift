import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program a test starts, through `posix_spawn` and `waitpid`, never Foundation's `Process`.
///
/// Foundation's `Process.waitUntilExit()` on Linux can miss the exit of a child when tests start
/// many at once (seen: a CI run hung for an hour on a `tmux` client that had long exited, a
/// zombie nobody reaped). Here each child is waited for by its own pid, with a deadline.
///
/// The child's standard input is /dev/null unless a pipe is asked for (never the test run's own,
/// which CI may leave open); it runs in a process group of its own, so a timeout or `kill()`
/// reaches whatever it started too; the pipes are close-on-exec, so no other child inherits them.
public final class ChildProcess: @unchecked Sendable {
    public enum Output { case pipe, null }

    public let pid: pid_t
    /// The reading ends of the child's standard output and error (when `.pipe`).
    public let standardOutput: FileHandle?
    public let standardError: FileHandle?
    /// The writing end of the child's standard input (when `input` was true); close it to send EOF.
    public let standardInput: FileHandle?
    private let lock = NSLock()
    private var exitStatus: Int32?
    private static let starting = NSLock()

    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `executable` with `arguments`. `environment` is the whole environment (this
    /// process's when nil); `directory` the working folder (run through `env -C`).
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                directory: String? = nil, input: Bool = false, output: Output = .pipe, error: Output = .pipe) throws {
        var program = executable, argv = [executable] + arguments
        if let directory {
            program = "/usr/bin/env"
            argv = ["/usr/bin/env", "-C", directory, executable] + arguments
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noMask = sigset_t()
        sigemptyset(&noMask)
        posix_spawnattr_setsigmask(&attributes, &noMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        // Pipes are made and marked close-on-exec, and the child spawned, one start at a time,
        // so no child started on another thread inherits a pipe in between.
        Self.starting.lock()
        defer { Self.starting.unlock() }
        var parentEnds: [Int32] = [], childEnds: [Int32] = []
        func makePipe() throws -> (read: Int32, write: Int32) {
            // Close-on-exec from the start (pipe2), not set a moment later: no process spawned
            // in between, from anywhere in this process, can inherit an end and hold it open.
            var fds: [Int32] = [0, 0]
            guard makePipeClosingOnExec(&fds, O_CLOEXEC) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
            return (fds[0], fds[1])
        }
        var inputHandle: FileHandle?, outputHandle: FileHandle?, errorHandle: FileHandle?
        if input {
            let p = try makePipe()
            posix_spawn_file_actions_adddup2(&actions, p.read, 0)
            childEnds.append(p.read); parentEnds.append(p.write)
            inputHandle = FileHandle(fileDescriptor: p.write, closeOnDealloc: true)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        for (target, kind) in [(Int32(1), output), (Int32(2), error)] {
            switch kind {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .pipe:
                let p = try makePipe()
                posix_spawn_file_actions_adddup2(&actions, p.write, target)
                childEnds.append(p.write); parentEnds.append(p.read)
                let handle = FileHandle(fileDescriptor: p.read, closeOnDealloc: true)
                if target == 1 { outputHandle = handle } else { errorHandle = handle }
            }
        }
        // Nothing else this process has open reaches the child: a file another test is writing
        // (an executable being copied) held open by a long-lived child makes exec of it fail
        // with ETXTBSY ("Text file busy"), seen as a rare exit 126 in CI.
        addCloseFrom(&actions, 3)
        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var cArgv = argv.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer { (cArgv + cEnv).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, program, &actions, &attributes, &cArgv, &cEnv)
        for fd in childEnds { close(fd) }
        guard result == 0 else {
            for fd in parentEnds { close(fd) }
            throw SpawnError(description: "\(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        standardInput = inputHandle; standardOutput = outputHandle; standardError = errorHandle
    }

    deinit {
        if status == nil { kill(-pid, SIGKILL); _ = wait() }
    }

    /// The exit status once it has ended (128 + N when ended by signal N), nil while running.
    public var status: Int32? {
        lock.lock(); defer { lock.unlock() }
        if exitStatus == nil { reap(WNOHANG) }
        return exitStatus
    }

    public var isRunning: Bool { status == nil }

    /// Sends `signal` to the child and everything it started.
    public func signal(_ signal: Int32) {
        if isRunning { kill(-pid, signal) }
    }

    /// Waits for the child to end; after `timeout` seconds it (and its process group) is
    /// killed first, and a line on standard error says so. Returns the exit status.
    @discardableResult
    public func wait(timeout: TimeInterval = 600) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 1_000
        while isRunning {
            if Date() >= deadline {
                FileHandle.standardError.write(Data("test: \(pid) still running after \(Int(timeout)) s: killed\n".utf8))
                kill(-pid, SIGKILL)
                lock.lock(); reap(0); lock.unlock()
                break
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        return status ?? -1
    }

    /// Reads standard output and error to their ends (both at once, so neither pipe fills),
    /// then waits as `wait(timeout:)` does.
    public func outputs(timeout: TimeInterval = 600) -> (status: Int32, stdout: Data, stderr: Data) {
        let group = DispatchGroup()
        nonisolated(unsafe) var out = Data(), err = Data()
        // Read on threads of their own, not on Dispatch's shared pool: with many tests blocked
        // on that pool, a read queued there may not start for longer than the wait below, and
        // the outputs came back empty from a child that had exited 0 (its few lines waiting in
        // the pipe; seen once in CI as an ffprobe that "found no streams").
        if let standardOutput {
            group.enter()
            Thread.detachNewThread { out = standardOutput.readDataToEndOfFile(); group.leave() }
        }
        if let standardError {
            group.enter()
            Thread.detachNewThread { err = standardError.readDataToEndOfFile(); group.leave() }
        }
        // The deadline applies to the reading as well: a child killed at its deadline closes its pipes.
        let status = wait(timeout: timeout)
        // Something the child started may still hold a pipe open: its group goes too.
        if group.wait(timeout: .now() + 30) == .timedOut {
            FileHandle.standardError.write(Data("test: the outputs of \(pid) were still open 30 s after it ended: its group killed\n".utf8))
            kill(-pid, SIGKILL)
            _ = group.wait(timeout: .now() + 5)
        }
        return (status, out, err)
    }

    /// waitpid on this child only; call with the lock held.
    private func reap(_ options: Int32) {
        var raw: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &raw, options) } while result < 0 && errno == EINTR
        guard result == pid else { return }
        let signalled = raw & 0x7f
        exitStatus = signalled == 0 ? (raw >> 8) & 0xff : 128 + signalled
    }
}

/// glibc's pipe2, which the Glibc module does not import (it is behind _GNU_SOURCE).
@_silgen_name("pipe2")
private func makePipeClosingOnExec(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later; Debian 12 has 2.36), which
/// the Glibc module does not import: closes every descriptor from `from` up in the child.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
