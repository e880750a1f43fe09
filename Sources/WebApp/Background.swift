import Dispatch

/// Runs image work (decoding, drawing, encoding: tens to hundreds of milliseconds) on its own
/// threads, so it never holds up Swift's few cooperative threads that serve requests.
enum Background {
    private static let queue = DispatchQueue(label: "sketchease.serve.work", qos: .userInitiated, attributes: .concurrent)

    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
