import Foundation

/// Reading SketchEase's own JSON files (sessions, plans): each starts with `format` and `version`.
public enum VersionedJSON {
    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    /// The file's bytes, once it is known to be JSON of `format` at a version this build reads.
    public static func load(_ path: String, format: String, supported: Int) throws -> Data {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw SessionError(path: path, reason: .unreadable(exists ? "permission denied" : "no such file"))
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch DecodingError.typeMismatch {
            throw SessionError(path: path, reason: .foreign(format))
        } catch {
            throw SessionError(path: path, reason: .notJSON(describe(error)))
        }
        guard header.format == format else { throw SessionError(path: path, reason: .foreign(format)) }
        guard let version = header.version, version >= 1 else {
            throw SessionError(path: path, reason: .invalid("missing or bad \"version\""))
        }
        guard version <= supported else {
            throw SessionError(path: path, reason: .newerVersion(found: version, supported: supported))
        }
        return data
    }

    /// The format field of a SketchEase JSON file, or nil if it has none.
    public static func format(of data: Data) -> String? {
        (try? JSONDecoder().decode(Header.self, from: data))?.format
    }

    /// A decoding error in a few words: what is wrong and where.
    public static func describe(_ error: Error) -> String {
        func where_(_ path: [CodingKey]) -> String {
            let p = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "" : " at \(p.hasPrefix(".") ? String(p.dropFirst()) : p)"
        }
        switch error {
        case DecodingError.keyNotFound(let key, let ctx): return "missing \"\(key.stringValue)\"\(where_(ctx.codingPath))"
        case DecodingError.typeMismatch(_, let ctx): return "wrong type\(where_(ctx.codingPath))"
        case DecodingError.valueNotFound(_, let ctx): return "missing value\(where_(ctx.codingPath))"
        case DecodingError.dataCorrupted(let ctx):
            let detail = (ctx.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? ctx.debugDescription
            return detail + where_(ctx.codingPath)
        default: return "\(error)"
        }
    }
}

extension JSONEncoder {
    /// How SketchEase writes every JSON file and JSON output: indented, keys sorted (so files
    /// diff well and tests can compare them), slashes in paths left as they are.
    public static var readable: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
