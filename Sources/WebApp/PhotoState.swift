import Foundation
import SketchEase

/// The page's view of an open photo, sent after every request that changes it.
struct PhotoState: EditingAnswer {
    struct Face: Encodable, Sendable {
        var id: Int
        /// `[x, y, width, height]` in pixels of the upright photo.
        var box: [Double]
        var style: FaceStyle?
        /// "pencil (darkness=2)", or nil when the face is left as photographed.
        var label: String?
        /// True for a box drawn by hand (no landmarks).
        var drawn: Bool
        var warnings: [Warning]
    }

    struct Warning: Encodable, Sendable {
        var kind: String
        var message: String
    }

    /// What a photo adds to `EditingState`.
    struct Own: Encodable, Sendable {
        /// Display pixels per photo pixel in the preview.
        var displayScale: Double
        var faces: [Face]
        var threshold: Double
        /// The style the photo around the faces is drawn in (nil: as photographed).
        var background: FaceStyle?
    }

    var editing: EditingState
    var own: Own

    init(entry: PhotoLibrary.Entry, state session: EditingSession, revision: Int, displayScale: Double,
         warnings: [Int: [FaceQualityWarning]], message: String?) {
        let image = session.image
        editing = EditingState(entry: entry, session: session, width: image.photo.width, height: image.photo.height,
                               revision: revision, message: message)
        let faces = image.faces.map { face in
            Face(id: face.id, box: face.box.array, style: face.style, label: face.style?.label, drawn: face.landmarks.isEmpty,
                 warnings: (warnings[face.id] ?? []).map { Warning(kind: $0.kind.rawValue, message: $0.message) })
        }
        own = Own(displayScale: displayScale, faces: faces, threshold: session.detection.threshold,
                  background: image.history.background(from: session.render.background))
    }
}

/// A style and its parameters as the page builds its controls from them.
struct FilterDescription: Encodable, Sendable {
    struct Parameter: Encodable, Sendable {
        var id: String
        var summary: String
        /// number, integer, flag, choice, choices, colour or path.
        var kind: String
        var min: Double?
        var max: Double?
        var step: Double?
        /// "log" where the slider moves on a logarithmic scale (`FilterParameter.logarithmicSlider`).
        var scale: String?
        var options: [String]?
        var defaultValue: ParameterValue
        /// "0.5...4 (default 1.6)", as `sketchease filters` prints it.
        var range: String

        enum CodingKeys: String, CodingKey { case id, summary, kind, min, max, step, scale, options, defaultValue = "default", range }
    }

    var id: String
    var summary: String
    /// What blind panels found against the style's peers (`SketchFilter.judged`).
    var judged: String?
    var parameters: [Parameter]

    init(_ filter: any SketchFilter) {
        id = filter.id; summary = filter.summary; judged = filter.judged
        parameters = filter.parameters.map { p in
            var d = Parameter(id: p.id, summary: p.summary, kind: "", defaultValue: p.defaultValue, range: p.rangeDescription)
            switch p.kind {
            case .number(let range, _):
                d.kind = "number"; d.min = range.lowerBound; d.max = range.upperBound
                d.step = Self.step(for: range.upperBound - range.lowerBound)
                if p.logarithmicSlider { d.scale = "log" }
            case .integer(let range, _):
                d.kind = "integer"; d.min = Double(range.lowerBound); d.max = Double(range.upperBound); d.step = 1
            case .flag: d.kind = "flag"
            case .choice(let options, _): d.kind = "choice"; d.options = options
            case .choices(let options, _): d.kind = "choices"; d.options = options
            case .colour: d.kind = "colour"
            case .path: d.kind = "path"
            case .point: d.kind = "point"
            }
            return d
        }
    }

    /// A round slider step giving a few hundred positions over a span: 0.001, 0.002, 0.005, 0.01…
    static func step(for span: Double) -> Double {
        guard span > 0 else { return 1 }
        let raw = span / 400
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        return [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? magnitude * 10
    }
}

/// One photo in the strip.
struct PhotoSummary: Encodable, Sendable {
    var id: String
    var name: String
    /// The folder it is in, as the page shows it ("photos/trip").
    var folder: String
    /// Whether it has a saved session (edited here or at the `edit` prompt).
    var edited: Bool
    /// "photo" or "clip".
    var kind = "photo"
    /// A clip's length in seconds, size and frame count (from its header).
    var duration: Double?
    var width: Int?
    var height: Int?
    var frames: Int?
}
