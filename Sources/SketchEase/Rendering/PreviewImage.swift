import Foundation

/// The picture shown while editing: the current result, reduced, with each face's box outlined
/// and labelled with its number (green for styled faces, amber for faces left as they are).
///
/// Everything is drawn with libvips without changing any image in place: outlines are thin
/// rectangles made with `black`/`embed`, blended through `ifthenelse`; numbers come from `text`.
public enum PreviewImage {
    public static let styledColour: [Double] = [40, 200, 90]
    public static let plainColour: [Double] = [255, 176, 0]

    public static func render(_ filtered: FilteredImage, compositor: FaceCompositor, maxSide: Int = 1200) throws -> VipsImage {
        let (base, scale) = try filtered.renderReduced(maxSide: maxSide, with: compositor)
        let line = max(2, Int((Double(max(base.width, base.height)) / 400).rounded()))
        var out = base
        for face in filtered.faces {
            let colour = face.style == nil ? plainColour : styledColour
            let box = face.box.scaled(x: scale, y: scale)
            out = try outline(box, on: out, colour: colour, line: line)
            out = try label("\(face.id)", at: box, on: out, colour: colour, line: line)
        }
        return out
    }

    /// `image` with a rectangle outline `line` pixels thick drawn along `box` (clipped to the image).
    static func outline(_ box: FaceBox, on image: VipsImage, colour: [Double], line: Int) throws -> VipsImage {
        let x0 = Int(box.x.rounded()), y0 = Int(box.y.rounded())
        let w = max(Int(box.width.rounded()), 2 * line + 1), h = max(Int(box.height.rounded()), 2 * line + 1)
        // A white w×h block with a black (w-2l)×(h-2l) hole is the outline's mask.
        let hole = try VipsCall.image("black", ["width": .int(w - 2 * line), "height": .int(h - 2 * line)])
        let frame = try hole.embed(x: line, y: line, width: w, height: h, extend: "white")
        // Placed on a black canvas the size of the image; parts outside the image fall away.
        let mask = try frame.embed(x: x0, y: y0, width: image.width, height: image.height, extend: "black")
        let paint = try VipsImage.solid(width: image.width, height: image.height, pixel: colour)
        return try mask.cast("uchar").ifThenElse(paint, image)
    }

    /// A filled tag with the number in white, just above the box's top-left corner (inside the
    /// image).
    static func label(_ text: String, at box: FaceBox, on image: VipsImage, colour: [Double], line: Int) throws -> VipsImage {
        let size = max(16, min(40, Int(box.height / 5)))
        let glyphs = try VipsCall.image("text", ["text": .string(text), "font": .string("sans bold \(size)"), "dpi": .int(72)])
        let pad = max(3, size / 5)
        let tagW = glyphs.width + 2 * pad, tagH = glyphs.height + 2 * pad
        let textMask = try glyphs.embed(x: pad, y: pad, width: tagW, height: tagH, extend: "black")
        let white = try VipsImage.solid(width: tagW, height: tagH, pixel: [255, 255, 255])
        let fill = try VipsImage.solid(width: tagW, height: tagH, pixel: colour)
        let tag = try textMask.ifThenElse(white, fill, blend: true)
        var x = Int(box.x.rounded()), y = Int(box.y.rounded()) - tagH
        if y < 0 { y = Int(box.y.rounded()) + line }
        x = min(max(0, x), max(0, image.width - tagW))
        y = min(max(0, y), max(0, image.height - tagH))
        return try image.inserting(tag, x: x, y: y)
    }
}
