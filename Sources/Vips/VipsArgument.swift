import CVips

/// A value that can be passed to a libvips operation argument.
public enum VipsArgument {
    case image(VipsImage)
    case images([VipsImage])
    case int(Int)
    case double(Double)
    case bool(Bool)
    case string(String)
    case doubles([Double])
    /// An array of integers (an area as `[left, top, width, height]`).
    case ints([Int])
    /// An enum or flags argument by its libvips nickname ("multiply", "centre").
    case nick(String)

    /// Sets this value as argument `name` of `op`; returns libvips' status (0 = ok).
    func set(on op: CVipsOperationPointer, name: String) -> Int32 {
        switch self {
        case .image(let image):
            return sk_op_set_image(op, name, image.pointer)
        case .images(let images):
            var pointers: [CVipsImagePointer?] = images.map { $0.pointer }
            return withExtendedLifetime(images) {
                sk_op_set_images(op, name, &pointers, Int32(pointers.count))
            }
        case .int(let v):
            return sk_op_set_int(op, name, Int32(clamping: v))
        case .double(let v):
            return sk_op_set_double(op, name, v)
        case .bool(let v):
            return sk_op_set_bool(op, name, v ? 1 : 0)
        case .string(let v):
            return sk_op_set_string(op, name, v)
        case .doubles(let v):
            return sk_op_set_doubles(op, name, v, Int32(v.count))
        case .ints(let v):
            let values = v.map { Int32(clamping: $0) }
            return sk_op_set_ints(op, name, values, Int32(values.count))
        case .nick(let v):
            return sk_op_set_enum(op, name, v)
        }
    }
}

extension VipsArgument: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
