import Synchronization

/// A request to stop a long job early (Ctrl-C): set from any thread, read by the workers
/// between photos.
public final class StopRequest: Sendable {
    private let requested = Atomic<Bool>(false)

    public init() {}

    public func request() { requested.store(true, ordering: .relaxed) }

    public var isRequested: Bool { requested.load(ordering: .relaxed) }
}
