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
        let faces = filtered.faces.map { (face: $0, box: $0.box.scaled(x: scale, y: scale),
                                          colour: $0.style == nil ? plainColour : styledColour) }
        for f in faces { out = try outline(f.box, on: out, colour: f.colour, line: line) }
        // Labels after every outline, each where it hides no other label.
        var placed: [PixelRect] = []
        for f in faces {
            let tag = try self.tag("\(f.face.id)", height: f.box.height, colour: f.colour)
            let spot = labelSpot(for: tag, at: f.box, in: out, line: line, avoiding: placed)
            placed.append(spot)
            out = try out.inserting(tag, x: spot.x, y: spot.y)
        }
        return out
    }

    /// `image` with a rectangle outline `line` pixels thick drawn along `box` (clipped to the image).
    static func outline(_ box: FaceBox, on image: VipsImage, colour: [Double], line: Int) throws -> VipsImage {
        let x0 = Int(box.x.rounded()), y0 = Int(box.y.rounded())
        let w = max(Int(box.width.rounded()), 2 * line + 1), h = max(Int(box.height.rounded()), 2 * line + 1)
        // A white w×h block with a black (w-2l)×(h-2l) hole is the outline's mask.
        let hole = try VipsImage.black(width: w - 2 * line, height: h - 2 * line)
        let frame = try hole.embed(x: line, y: line, width: w, height: h, extend: "white")
        // Placed on a black canvas the size of the image; parts outside the image fall away.
        let mask = try frame.embed(x: x0, y: y0, width: image.width, height: image.height, extend: "black")
        let paint = try VipsImage.solid(width: image.width, height: image.height, pixel: colour)
        return try mask.cast(.uchar).ifThenElse(paint, image)
    }

    /// A filled tag with the number in white, sized for a box `height` pixels tall.
    static func tag(_ text: String, height: Double, colour: [Double]) throws -> VipsImage {
        let size = max(16, min(40, Int(height / 5)))
        let glyphs = try VipsImage.text(text, font: "sans bold \(size)", dpi: 72)
        let pad = max(3, size / 5)
        let tagW = glyphs.width + 2 * pad, tagH = glyphs.height + 2 * pad
        let textMask = try glyphs.embed(x: pad, y: pad, width: tagW, height: tagH, extend: "black")
        let white = try VipsImage.solid(width: tagW, height: tagH, pixel: [255, 255, 255])
        let fill = try VipsImage.solid(width: tagW, height: tagH, pixel: colour)
        return try textMask.ifThenElse(white, fill, blend: true)
    }

    /// Where a face's tag goes: just above the box's top-left corner if that is free, else inside
    /// its top-left corner, under the box, or at its right: the first spot (kept inside the image)
    /// that overlaps no tag placed before, or the one overlapping least.
    static func labelSpot(for tag: VipsImage, at box: FaceBox, in image: VipsImage, line: Int,
                          avoiding placed: [PixelRect]) -> PixelRect {
        let w = tag.width, h = tag.height
        let left = Int(box.x.rounded()), right = Int(box.maxX.rounded()) - w
        let top = Int(box.y.rounded()), bottom = Int(box.maxY.rounded())
        let candidates = [(left, top - h), (left + line, top + line), (left, bottom), (right, top - h),
                          (right - line, top + line), (right, bottom)]
        let spots = candidates.map { x, y in
            PixelRect(x: min(max(0, x), max(0, image.width - w)), y: min(max(0, y), max(0, image.height - h)), width: w, height: h)
        }
        func overlap(_ r: PixelRect) -> Int {
            placed.reduce(0) { sum, other in sum + (r.clipped(to: other).map { $0.width * $0.height } ?? 0) }
        }
        return spots.first { overlap($0) == 0 } ?? spots.min { overlap($0) < overlap($1) }!
    }
}
