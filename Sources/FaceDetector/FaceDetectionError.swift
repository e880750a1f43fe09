/// Why a detector could not be opened or run.
public struct FaceDetectionError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
