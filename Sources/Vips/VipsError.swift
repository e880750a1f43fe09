import CVips
import Foundation

/// A libvips failure, carrying libvips' own message.
public struct VipsError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What was being done ("gaussblur", "load /path/x.jpg").
    public let operation: String
    /// libvips' message, condensed to one line.
    public let message: String

    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    public var description: String { message.isEmpty ? operation : "\(operation): \(message)" }

    /// Reads libvips' global error buffer, clears it, and wraps the text.
    ///
    /// The buffer is shared by every thread, so read-and-clear happens under one lock; this is
    /// the only place in the project that touches it.
    static func takeFromLibvips(operation: String) -> VipsError {
        let text: String = VipsRuntime.errorBufferLock.withLock {
            let raw = sk_vips_error_take()!
            defer { g_free(raw) }
            return String(cString: raw)
        }
        return VipsError(operation: operation, message: condense(text))
    }

    /// libvips prefixes each line with a domain ("VipsForeignLoad: ") and may repeat itself.
    static func condense(_ text: String) -> String {
        var seen = Set<String>()
        var parts: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || !seen.insert(trimmed).inserted { continue }
            parts.append(trimmed)
        }
        return parts.joined(separator: "; ")
    }
}
