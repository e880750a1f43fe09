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
    /// How faces are cut out and blended (region, tone), as in `batch`.
    public var render: RenderOptions

    public init(columns: [Column], cellHeight: Int = 200, render: RenderOptions = .init()) {
        self.columns = columns; self.cellHeight = cellHeight; self.render = render
    }

    /// Every registered style with its defaults, plus the variants worth seeing. `chroma` is
    /// left out: a fixed key colour is right for no set of photos (on the portraits it keyed
    /// blue irises along with the backdrop), and green screen needs a green screen.
    public static func standardColumns(registry: FilterRegistry = .standard) throws -> [Column] {
        var columns: [Column] = []
        for filter in registry.filters where filter.id != "chroma" {
            let label = filter.id == "none" ? "original" : filter.id
            columns.append(Column(label: label, style: try .named(filter.id, registry: registry)))
            if filter.id == "relief" {
                let settings = try registry.settings(for: "relief", assignments: ["lighting": "phong"])
                columns.append(Column(label: "relief phong", style: FaceStyle(filterID: "relief", settings: settings)))
            }
            if filter.id == "pencil" {
                let settings = try registry.settings(for: "pencil", assignments: ["colour": "0.7"])
                columns.append(Column(label: "pencil colour=0.7", style: FaceStyle(filterID: "pencil", settings: settings)))
            }
        }
        if let none = columns.firstIndex(where: { $0.style.filterID == "none" }) {
            columns.insert(columns.remove(at: none), at: 0)
        }
        return columns
    }

    /// Draws the sheet: `faces` are (photo, detected face) pairs, each one row. Each cell is the
    /// photo around the face as `batch` draws it (region, tone, landmarks), so a cell shows
    /// whether the styled head sits in its photo.
    public func render(faces: [(image: VipsImage, face: DetectedFace)], registry: FilterRegistry = .standard) throws -> VipsImage {
        let compositor = FaceCompositor(registry: registry, options: render)
        var rows: [[VipsImage]] = []
        for (image, face) in faces {
            let box = face.box
            let bounds = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
            let shown = FaceBox(x: box.x - 0.6 * box.width, y: box.y - 0.8 * box.height, width: 2.2 * box.width, height: 2.6 * box.height)
            guard let rect = PixelRect(enclosing: shown)?.clipped(to: bounds) else { continue }
            let scale = Double(cellHeight) / Double(rect.height)
            var row: [VipsImage] = []
            for column in columns {
                let drawn = try compositor.render(image, faces: [StyledFace(box: box, style: column.style, landmarks: face.landmarks)])
                row.append(try drawn.crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height).resize(scale: scale))
            }
            rows.append(row)
        }
        // Cells are as wide as the widest face or label, so no label is cut off.
        let texts = try columns.map { try text($0.label) }
        let cellWidth = max(rows.flatMap { $0 }.map(\.width).max() ?? 0, texts.map(\.width).max() ?? 0)
        let labels = try texts.map { try label($0, width: cellWidth) }
        var lines = [try join(labels, across: labels.count)]
        for row in rows {
            let cells = try row.map { try $0.embed(x: (cellWidth - $0.width) / 2, y: 0, width: cellWidth, height: cellHeight, extend: "white") }
            lines.append(try join(cells, across: cells.count))
        }
        let sheet = try lines.dropFirst().reduce(lines[0]) { above, below in
            try above.joined(below, .vertical, shim: 6, expand: true, background: [255, 255, 255])
        }
        return try sheet.embed(x: 8, y: 0, width: sheet.width + 16, height: sheet.height + 8, extend: "white")
    }

    private func join(_ images: [VipsImage], across: Int) throws -> VipsImage {
        try VipsImage.arrayJoin(images, across: across, shim: 6, background: [255, 255, 255])
    }

    private func text(_ text: String) throws -> VipsImage {
        try VipsImage.text(text, font: "sans bold 13", dpi: 96)
    }

    /// Dark text centred on a white strip `width` pixels wide (at least the text's width).
    private func label(_ ink: VipsImage, width: Int) throws -> VipsImage {
        let strip = try ink.embed(x: max(0, (width - ink.width) / 2), y: 8, width: max(width, ink.width), height: ink.height + 14)
            .crop(x: 0, y: 0, width: width, height: ink.height + 14)
        let grey = try strip.inverted().linear(0.85, 0).linear(1, 255 * 0.15).cast(.uchar)
        return try VipsImage.bandjoin([grey, grey, grey]).reinterpreted(as: .srgb)
    }
}
