import Dispatch
import Foundation

/// Ctrl-C during a recording: the first asks the job to finish what it has (the file is
/// completed properly); a second one ends the program at once.
enum Interrupt {
    nonisolated(unsafe) private static var source: DispatchSourceSignal?

    static func onInterrupt(_ handler: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        let s = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        nonisolated(unsafe) var count = 0
        s.setEventHandler {
            count += 1
            if count > 1 { exit(130) }
            Terminal.printErr("\nstopping: finishing the output (Ctrl-C again to quit at once)")
            handler()
        }
        s.resume()
        source = s
    }
}
