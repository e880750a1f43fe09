import Foundation
import SketchEase

/// The browser code (plain HTML, CSS and JavaScript modules, shipped as this target's
/// resources), read once at start. Only these files are ever served as pages or scripts:
/// their names are the whole list, so no request path reaches the file system here.
struct SiteFiles: Sendable {
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    let files: [String: File]

    /// Where the resources are looked for: `$SKETCHEASE_WEB`, the SwiftPM resource bundle
    /// beside the running executable (`/proc/self/exe`, as for the model: a build, or a command
    /// found through PATH), then `PREFIX/share/sketchease/web` (`make install`).
    static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var list: [String] = []
        if let explicit = environment["SKETCHEASE_WEB"], !explicit.isEmpty { list.append(explicit) }
        let executable = URL(fileURLWithPath: DetectorLocator.runningExecutable() ?? ".").resolvingSymlinksInPath()
        let folder = executable.deletingLastPathComponent()
        list.append(folder.appendingPathComponent("SketchEase_WebApp.resources/Site").path)
        list.append(Bundle.main.bundleURL.appendingPathComponent("SketchEase_WebApp.resources/Site").path)
        list.append(folder.deletingLastPathComponent().appendingPathComponent("share/sketchease/web").path)
        return list
    }

    struct Missing: Error, CustomStringConvertible {
        var looked: [String]
        var description: String { "the web app's files were not found (looked in \(looked.joined(separator: ", ")); set SKETCHEASE_WEB)" }
    }

    static func load() throws -> SiteFiles {
        let fm = FileManager.default
        let places = candidates()
        guard let folder = places.first(where: { fm.fileExists(atPath: $0 + "/index.html") }) else { throw Missing(looked: places) }
        var files: [String: File] = [:]
        for name in try fm.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".") {
            guard let type = contentTypes[(name as NSString).pathExtension],
                  let data = fm.contents(atPath: folder + "/" + name) else { continue }
            files[name] = File(bytes: Array(data), contentType: type)
        }
        return SiteFiles(files: files)
    }

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "webmanifest": "application/manifest+json",
    ]
}
