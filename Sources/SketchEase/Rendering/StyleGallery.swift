/// A contact sheet of every style on face crops: one row per face, one column per style,
/// labelled across the top. Used by `make gallery` for the README.
public struct StyleGallery: Sendable {
    /// One column: a label and the style drawn under it.
    public struct Column: Sendable {
        public var label: String
        public var style: FaceStyle
        public init(label: String, style: FaceStyle) { self.label = label; self.style = style }
    }

    public var columns: [Column]
    /// Height of each face cell in the sheet, in pixels.
    public var cellHeight: Int
    /// How far around the face box each crop reaches (as in `batch --box-scale`).
    public var boxScale: Double

    public init(columns: [Column], cellHeight: Int = 200, boxScale: Double = 1.5) {
        self.columns = columns; self.cellHeight = cellHeight; self.boxScale = boxScale
    }

    /// Every registered style with its defaults, plus the variants worth seeing.
    public static func standardColumns(registry: FilterRegistry = .standard) throws -> [Column] {
        var columns: [Column] = []
        for filter in registry.filters {
            let label = filter.id == "none" ? "original (none)" : filter.id
            columns.append(Column(label: label, style: try .named(filter.id, registry: registry)))
            if filter.id == "relief" {
                let settings = try registry.settings(for: "relief", assignments: ["lighting": "harmonics"])
                columns.append(Column(label: "relief harmonics", style: FaceStyle(filterID: "relief", settings: settings)))
            }
        }
        // Chroma keys the blue studio backdrop of the portraits (no green screen among the examples).
        if let index = columns.firstIndex(where: { $0.style.filterID == "chroma" }) {
            let settings = try registry.settings(for: "chroma", assignments: ["hue": "215", "tolerance": "30", "background": "#f2c14e"])
            columns[index] = Column(label: "chroma hue=215", style: FaceStyle(filterID: "chroma", settings: settings))
        }
        if let none = columns.firstIndex(where: { $0.style.filterID == "none" }) {
            columns.insert(columns.remove(at: none), at: 0)
        }
        return columns
    }

    /// Draws the sheet: `faces` are (photo, detected face) pairs, each one row. Landmarks reach
    /// the filters as they do in a batch, so landmark styles (mask) are drawn too.
    public func render(faces: [(image: VipsImage, face: DetectedFace)], registry: FilterRegistry = .standard) throws -> VipsImage {
        var cellWidth = 0
        var rows: [[VipsImage]] = []
        for (image, face) in faces {
            let box = face.box
            let bounds = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
            guard let rect = PixelRect(enclosing: box.grown(by: boxScale))?.clipped(to: bounds) else { continue }
            let crop = try image.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            let region = FaceRegion(box: box, landmarks: face.landmarks, in: rect)
            let context = FilterContext(faceSize: min(box.width, box.height), seed: FaceCompositor.seed(for: box), faces: [region])
            let scale = Double(cellHeight) / Double(crop.height)
            var row: [VipsImage] = []
            for column in columns {
                let filter = try registry.filter(column.style.filterID)
                let drawn = try filter.apply(to: crop, settings: column.style.settings, context: context)
                let small = try drawn.resize(scale: scale)
                cellWidth = max(cellWidth, small.width)
                row.append(small)
            }
            rows.append(row)
        }
        let labels = try columns.map { try label($0.label, width: cellWidth) }
        var lines = [try join(labels, across: labels.count)]
        for row in rows {
            let cells = try row.map { try $0.embed(x: (cellWidth - $0.width) / 2, y: 0, width: cellWidth, height: cellHeight, extend: "white") }
            lines.append(try join(cells, across: cells.count))
        }
        let sheet = try lines.dropFirst().reduce(lines[0]) { above, below in
            try VipsCall.image("join", [
                "in1": .image(above), "in2": .image(below), "direction": .nick("vertical"), "shim": .int(6),
                "expand": .bool(true), "background": .doubles([255, 255, 255]),
            ])
        }
        return try sheet.embed(x: 8, y: 0, width: sheet.width + 16, height: sheet.height + 8, extend: "white")
    }

    private func join(_ images: [VipsImage], across: Int) throws -> VipsImage {
        try VipsCall.image("arrayjoin", [
            "in": .images(images), "across": .int(across), "shim": .int(6), "background": .doubles([255, 255, 255]),
        ])
    }

    /// Dark text centred on a white strip `width` pixels wide.
    private func label(_ text: String, width: Int) throws -> VipsImage {
        let ink = try VipsCall.image("text", ["text": .string(text), "font": .string("sans bold 13"), "dpi": .int(96)])
        let strip = try ink.embed(x: max(0, (width - ink.width) / 2), y: 8, width: max(width, ink.width), height: ink.height + 14)
            .crop(x: 0, y: 0, width: width, height: ink.height + 14)
        let grey = try strip.inverted().linear(0.85, 0).linear(1, 255 * 0.15).cast("uchar")
        return try VipsImage.bandjoin([grey, grey, grey]).reinterpreted(as: "srgb")
    }
}
