import Foundation
import Vips

/// Finds every face of at least `options.minFace` pixels in an image of any size, at a cost
/// that grows with the detailed area rather than the pixel count.
///
/// CenterFace finds faces from about 12 px across in its input up to most of its input, but
/// it is reliable only from ~16 px, and its working memory grows with the input (~65 MB at
/// 640×640). So the search runs in passes over copies at several scales:
///
/// 1. **Coarse pass**: the whole image shrunk to `options.maxSide` (640 px) finds the large
///    faces, as before.
/// 2. **Tile levels**: where that copy shows the smallest wanted face at less than 12 px, the
///    image is shrunk so it measures 12 px and searched in tiles of at most 640×640 (one size
///    for the photo, the cheapest for where its detail lies), then at a third of that scale,
///    and so on until the coarse pass takes over (a level answers for faces of 12–60 px in its
///    tiles; larger ones are left to the coarser passes). Tiles overlap by more than the largest
///    face a level answers for, so every face lies whole in some tile, and a box close to a
///    tile's inner edge is dropped (its neighbour holds the face whole). Only the detailed
///    parts of a level are tiled (`ContrastMap`): sky, backdrops and walls are skipped, and so
///    is the inside of a face the coarse pass found.
/// 3. **Second look**: a detection below the threshold (down to 0.4 of it), or only just above
///    it while small in its tile, is cut out of the image at a resolution where the face is
///    28 px or twice as large as it was, and run again (`SecondLook`); it is kept when it then
///    reaches the threshold, with that confidence and box.
/// 4. **Merge**: detections of the same face from several passes, tiles and levels become
///    one (`FaceMerger`).
///
/// The copies are made one from another, the finest from the image (never a new decode), and
/// one network serves the tiles, the second looks and, where it fits, the coarse pass.
struct FaceSearch {
    let detector: OpenCVFaceDetector
    let options: DetectionOptions

    /// The smallest wanted face measures this many pixels in a level's tiles.
    static let levelFace = 12.0
    /// The largest face a level answers for, in its tiles' pixels (its successor, three times
    /// coarser, starts at 12 × 3 = 36; reaching further spares a level where the coarse pass
    /// starts a little above, as in 24 MP photos).
    static let levelLargestFace = 60.0
    /// From this size in the coarse copy (pixels) the coarse pass finds faces (with a second
    /// look for those it is unsure of).
    static let coarseReliableFace = 12.0
    /// Each tile level is this many times coarser than the one before.
    static let levelStep = 3.0
    /// Tiles hold at most 640 × 640 pixels (the network's working memory, ~65 MB).
    static let tileSize = 640
    /// A tile's fixed costs (setting up its input, reading its outputs), in pixels of work.
    static let tileOverhead = 16_384
    /// Building a network for another input size (~35 ms), in pixels of work.
    static let networkOverhead = 100_000
    /// Tiles overlap by this much: more than the largest face a level answers for.
    static let tileOverlap = 80
    /// Side of a contrast-map cell (level pixels) and the contrast below which a cell is flat.
    static let contrastCell = 16
    static let flatContrast: Float = 0.05
    /// Second looks: the face's size there (at least), and the side of each crop.
    static let secondLookFace = 28.0
    static let secondLookCell = 128

    /// The faces in `image`, in its pixel coordinates, best first; with `options.rotations`,
    /// also in the image turned by quarter and half turns (mapped back).
    func faces(in image: VipsImage) throws -> [DetectedFace] {
        let upright = try search(image)
        let merger = FaceMerger(iou: options.nmsIoU)
        switch options.rotations {
        case .off:
            return upright
        case .fallback:
            // Faces turned a quarter turn or more are found upright only now and then, with
            // low scores, but their landmarks show which way they lie: the photo is searched
            // again turned that way. With no face at all, every turn is tried.
            if let turn = Self.turnMakingUpright(upright) {
                return merger.merged(try search(image, turned: turn) + upright)
            }
            guard upright.isEmpty else { return upright }
            for turn in [QuarterTurn.clockwise, .anticlockwise, .half] {
                let found = try search(image, turned: turn)
                if !found.isEmpty { return found }
            }
            return []
        case .always:
            let turned = try [QuarterTurn.clockwise, .anticlockwise, .half].flatMap { try search(image, turned: $0) }
            return merger.merged(upright + turned)
        }
    }

    /// The turn that brings most of `faces` upright, when most lie turned beyond 45°: from the
    /// direction from the eyes to the mouth (straight down in an upright face).
    static func turnMakingUpright(_ faces: [DetectedFace]) -> QuarterTurn? {
        // Unit vectors from the eyes to the mouth, averaged (angles wrap at 180°).
        var sum = (x: 0.0, y: 0.0)
        for face in faces {
            guard let le = face.landmark(.leftEye), let re = face.landmark(.rightEye),
                  let ml = face.landmark(.mouthLeft), let mr = face.landmark(.mouthRight) else { continue }
            let dx = (ml.x + mr.x - le.x - re.x) / 2, dy = (ml.y + mr.y - le.y - re.y) / 2
            let length = (dx * dx + dy * dy).squareRoot()
            if length > 0 { sum.x += dx / length; sum.y += dy / length }
        }
        guard sum.x != 0 || sum.y != 0 else { return nil }
        let roll = atan2(sum.x, sum.y) * 180 / .pi   // 0: mouth below the eyes; -90: the faces lie turned clockwise
        switch roll {
        case -135 ..< -45: return .anticlockwise
        case 45 ..< 135: return .clockwise
        case -45 ..< 45: return nil
        default: return .half
        }
    }

    private func search(_ image: VipsImage, turned turn: QuarterTurn) throws -> [DetectedFace] {
        let turned = try image.rotated(turn.vipsAngle)
        return try search(turned).map { turn.unturn($0, width: Double(image.width), height: Double(image.height)) }
    }

    /// One orientation: the coarse pass, the tile levels, second looks, merged.
    private func search(_ image: VipsImage) throws -> [DetectedFace] {
        let coarseScale = min(1, Double(options.maxSide) / Double(max(image.width, image.height)))
        let searchesTiles = detector.kind == .centerFace && options.minFace > 0
        // Each copy is made from the one before it (the finest from the photo), so the photo's
        // pixels are read once.
        var levels: [Level] = []
        var source = image
        for scale in searchesTiles ? Self.levels(minFace: options.minFace, coarseScale: coarseScale) : [] {
            let level = try Level(source, scale: scale * Double(image.width) / Double(source.width), of: image)
            levels.append(level)
            source = try level.image()
        }
        let fromSource = coarseScale * Double(image.width) / Double(source.width)
        let coarse = try RGBPixels(fromSource < 1 ? Self.reduced(source, scale: fromSource) : source)
        let coarseToImage = Double(image.width) / Double(coarse.width)
        guard searchesTiles else {
            let faces = try detector.run(coarse, threshold: options.threshold, nmsIoU: options.nmsIoU)
            return FaceMerger(iou: options.nmsIoU).merged(faces.map { $0.scaled(x: coarseToImage, y: coarseToImage) })
        }
        let doubtfulFrom = options.threshold * 0.4
        // One tile size for the photo, the cheapest for its finest level (so one network
        // serves every level, the second looks and, where it fits, the coarse pass). With no
        // tile level (a photo up to 1280 px long), the coarse copy's own size: padded to
        // 640 × 640 it took twice the time and ~95 MB more memory on a 500 × 375 photo.
        var network = (width: TileLayout.padded(coarse.width), height: TileLayout.padded(coarse.height))
        if let finest = levels.first {
            let layout = finest.layout(network: nil, ignoring: [], holding: (coarse.width, coarse.height))
            network = (layout.tileWidth, layout.tileHeight)
        }
        let coarseFits = coarse.width <= network.width && coarse.height <= network.height
        let coarseFaces = try detector.run(coarse, networkSize: coarseFits ? network : nil, threshold: doubtfulFrom,
                                           nmsIoU: options.nmsIoU).map { $0.scaled(x: coarseToImage, y: coarseToImage) }
        var found = coarseFaces.map { Sighting(face: $0, scale: 1 / coarseToImage) }
        let large = coarseFaces.filter { ($0.score ?? 0) >= options.threshold }.map(\.box)
        for i in levels.indices {
            found += try searchLevel(levels[i], network: network, skipping: large, threshold: doubtfulFrom)
            levels[i].release()
        }
        let merger = FaceMerger(iou: options.nmsIoU)
        let sure = found.filter { $0.isSure(threshold: options.threshold) }.map(\.face)
        // Doubtful and wanted (about the smallest size or larger: CenterFace's boxes are ~0.8
        // of a hand-marked face's width), and not found for sure elsewhere: a second look.
        let doubtful = found.filter {
            !$0.isSure(threshold: options.threshold) && ($0.face.score ?? 0) >= doubtfulFrom
                && $0.face.box.shorterSide >= 0.6 * Double(options.minFace)
        }
        let distinct = merger.merged(doubtful.map(\.face), droppingInner: false)
            .filter { c in !sure.contains { merger.sameFace($0, c) } }
            .compactMap { c in doubtful.first { $0.face == c } }
        let confirmed = distinct.isEmpty ? [] : try SecondLook(detector: detector, mosaic: network, cell: Self.secondLookCell)
            .confirmed(distinct.map { ($0.face, $0.closerScale) }, in: image, threshold: options.threshold)
        return merger.merged(sure + confirmed)
    }

    /// One tile level: the image at a scale, and where its detail is.
    struct Level {
        /// Level pixels per image pixel.
        let scale: (x: Double, y: Double)
        private(set) var pixels: RGBPixels
        let contrast: ContrastMap

        /// `source` (the photo or a copy of it) reduced by `scale`; `photo` is the photo itself.
        init(_ source: VipsImage, scale: Double, of photo: VipsImage) throws {
            pixels = try RGBPixels(FaceSearch.reduced(source, scale: scale))
            self.scale = (Double(pixels.width) / Double(photo.width), Double(pixels.height) / Double(photo.height))
            contrast = ContrastMap(pixels, cell: FaceSearch.contrastCell)
        }

        /// The level's pixels as an image, to make the next, coarser copy from.
        func image() throws -> VipsImage {
            try VipsImage.fromPixels(pixels.bytes, width: pixels.width, height: pixels.height, bands: 3).reinterpreted(as: .srgb)
        }

        /// The tiles over the detailed parts, leaving out the inside of `faces` (image
        /// coordinates); of `network`'s size, or the cheapest size when nil (preferring one that
        /// can also run the coarse copy, `holding`).
        func layout(network: (width: Int, height: Int)?, ignoring faces: [FaceBox],
                    holding coarse: (width: Int, height: Int)? = nil) -> TileLayout {
            let regions = contrast.detailedRegions(minimumContrast: FaceSearch.flatContrast, margin: 0,
                                                   width: pixels.width, height: pixels.height,
                                                   ignoring: faces.map { $0.scaled(x: scale.x, y: scale.y) })
            if let network {
                return TileLayout(covering: regions, width: pixels.width, height: pixels.height,
                                  tileWidth: network.width, tileHeight: network.height, overlap: FaceSearch.tileOverlap)
            }
            return TileLayout.cheapest(covering: regions, width: pixels.width, height: pixels.height, overlap: FaceSearch.tileOverlap,
                                       maxArea: FaceSearch.tileSize * FaceSearch.tileSize, minSide: 256,
                                       perTile: FaceSearch.tileOverhead, alsoHolding: coarse, otherwise: FaceSearch.networkOverhead)
        }

        mutating func release() { pixels = RGBPixels(width: 0, height: 0) }
    }

    /// A detection and the scale (network pixels per image pixel) it was found at.
    struct Sighting {
        var face: DetectedFace
        var scale: Double

        /// The scale of a second look: the face at `FaceSearch.secondLookFace` pixels, or at
        /// twice the scale it was found at (up to full size) where that is larger.
        var closerScale: Double {
            max(FaceSearch.secondLookFace / max(face.box.shorterSide, 1), min(2 * scale, 1))
        }

        /// Whether a second look would see it at least half as large again.
        var canBeSeenCloser: Bool { closerScale >= 1.5 * scale }

        /// Kept as found: at or above the threshold, and clearly so, or large enough in the
        /// network's input, or impossible to see closer. Below 28 px there, false faces (a
        /// chest, two faces framed as one) reach 0.5–0.6 about once for every 200 real faces
        /// that do; measured on group photos made from the examples, none reached 0.6.
        func isSure(threshold: Double) -> Bool {
            let score = face.score ?? 0
            return score >= threshold
                && (score >= threshold + 0.1 || face.box.shorterSide * scale >= 28 || !canBeSeenCloser)
        }
    }

    /// The tile levels' scales, finest first: from the one showing a `minFace` face at 12 px,
    /// each three times coarser, until the coarse pass (at `coarseScale`) finds what is larger.
    static func levels(minFace: Int, coarseScale: Double) -> [Double] {
        guard minFace > 0 else { return [] }
        var scales: [Double] = []
        var scale = levelFace / Double(minFace)
        while scale > coarseScale {
            scales.append(scale)
            if levelLargestFace / scale >= coarseReliableFace / coarseScale { break }
            scale /= levelStep
        }
        return scales
    }

    /// One level searched in tiles over its detailed parts, outside the faces already found.
    private func searchLevel(_ level: Level, network: (width: Int, height: Int), skipping faces: [FaceBox],
                             threshold: Double) throws -> [Sighting] {
        let layout = level.layout(network: network, ignoring: faces)
        var sightings: [Sighting] = []
        for tile in layout.tiles {
            let found = try detector.run(level.pixels, region: tile, networkSize: network, threshold: threshold, nmsIoU: options.nmsIoU)
            for face in found where face.box.shorterSide <= Self.levelLargestFace && !Self.cut(face.box, by: tile, in: level.pixels.bounds) {
                sightings.append(Sighting(face: face.scaled(x: 1 / level.scale.x, y: 1 / level.scale.y), scale: level.scale.x))
            }
        }
        return sightings
    }

    /// A copy `scale` (≤ 1) times the size (see `VipsImage.reduce`). Lanczos: with the softer
    /// linear kernel, 12 px faces in a dim photo scored too low to be looked at again.
    static func reduced(_ image: VipsImage, scale: Double) throws -> VipsImage {
        try image.reduce(by: 1 / scale, kernel: "lanczos3")
    }

    /// Whether `box` comes close to an edge of `tile` that is not an edge of the image: the face
    /// may go on beyond it (the part of a face a tile cuts off can look like a smaller face of
    /// its own, its box a few pixels inside the edge), and the neighbouring tile holds it whole.
    /// Close is half the box's size, as far as the overlap leaves room for it in the neighbour.
    static func cut(_ box: FaceBox, by tile: PixelRect, in image: PixelRect) -> Bool {
        let margin = max(2, min(box.shorterSide / 2, (Double(tileOverlap) - max(box.width, box.height)) / 2))
        return (tile.x > image.x && box.x <= Double(tile.x) + margin)
            || (tile.y > image.y && box.y <= Double(tile.y) + margin)
            || (tile.maxX < image.maxX && box.maxX >= Double(tile.maxX) - margin)
            || (tile.maxY < image.maxY && box.maxY >= Double(tile.maxY) - margin)
    }
}
