import Foundation
import SketchEase
import Video

/// `apply` on a clip's editing session: the clip followed again and written as edited.
extension ApplyCommand {
    func applyClip(_ sessionFile: String) throws {
        let bar = ClipProgressBar(), name = (sessionFile as NSString).lastPathComponent
        defer { bar.clear() }
        let session = try ClipEditingSession.open(sessionFile: sessionFile, detector: try detection.openDetector(),
                                                  pixelLimit: limits.maxPixels) { bar.update($0, name: name) }
        var target = session.exportPath
        if let out {
            try OutputFolder.prepare(out)
            target = (out as NSString).appendingPathComponent((session.exportPath as NSString).lastPathComponent)
            try session.write(to: target)
        } else {
            try session.export(compare: false)
        }
        bar.clear()
        let styled = session.history.faces.filter { $0.style != nil }.count
        print("\(target) (\(styled) of \(session.history.faces.count) tracked faces styled)")
    }
}
