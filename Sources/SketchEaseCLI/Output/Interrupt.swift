import Dispatch
import Foundation

/// Ctrl-C for long jobs: the first asks the job to stop and finish what is in flight; a second
/// one ends the process at once (status 130; a later run clears any temporary file it left).
final class Interrupt {
    private let source: DispatchSourceSignal
    private var count = 0

    /// Calls `first` (on a background queue) at the first Ctrl-C.
    init(_ first: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [unowned self] in
            count += 1
            if count == 1 { first() } else { exit(130) }
        }
        source.resume()
    }

    /// Gives Ctrl-C its default meaning back.
    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    deinit { source.cancel() }
}
