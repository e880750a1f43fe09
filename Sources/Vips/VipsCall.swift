import CVips

/// One built libvips operation: the way every pixel operation in SketchEase runs.
///
/// Runs through libvips' generic API (`vips_operation_new`, property setters, the operation
/// cache), so any libvips operation is reachable by nickname without a C wrapper per operation.
public final class VipsCall {
    private let op: CVipsOperationPointer
    public let name: String

    /// Builds operation `name` with the given arguments; throws libvips' message on failure.
    public init(_ name: String, _ arguments: KeyValuePairs<String, VipsArgument>) throws {
        try VipsRuntime.ensureStarted()
        self.op = try FileErrors.beside {
            guard let fresh = sk_op_new(name) else {
                throw VipsError.takeFromLibvips(operation: name)
            }
            for (key, value) in arguments where value.set(on: fresh, name: key) != 0 {
                g_object_unref(fresh)
                throw VipsError.takeFromLibvips(operation: name)
            }
            guard let built = sk_op_build(fresh) else {
                throw VipsError.takeFromLibvips(operation: name)
            }
            return built
        }
        self.name = name
    }

    deinit { sk_op_finish(op) }

    /// An image output (usually "out").
    public func image(_ output: String = "out") throws -> VipsImage {
        guard let pointer = sk_op_get_image(op, output) else {
            throw VipsError(operation: name, message: "no image output \"\(output)\"")
        }
        return VipsImage(owning: pointer)
    }

    public func double(_ output: String = "out") -> Double { sk_op_get_double(op, output) }
    public func int(_ output: String) -> Int { Int(sk_op_get_int(op, output)) }

    /// Runs an operation and returns its "out" image.
    public static func image(_ name: String, _ arguments: KeyValuePairs<String, VipsArgument>) throws -> VipsImage {
        try VipsCall(name, arguments).image()
    }
}
