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
///    image is shrunk so it measures 12 px and searched in 640×640 tiles, then at a third of
///    that scale, and so on until the coarse pass takes over (a level answers for faces of
///    12–47 px in its tiles; larger ones are left to the coarser levels). Tiles overlap by more
///    than the largest face a level answers for, so every face lies whole in some tile, and a
///    box touching a tile's inner edge is dropped (its neighbour holds the face whole). Only the
///    detailed parts of a level are tiled (`ContrastMap`): sky, backdrops and walls are skipped,
///    and so is the inside of a face the coarse pass found.
/// 3. **Second look**: a detection below the threshold (but above half of it) is cut out of
///    the image at a resolution where the face is 28 px and run again (`SecondLook`); it is
///    kept when it then reaches the threshold, with that confidence.
/// 4. **Merge**: detections of the same face from several passes, tiles and levels become
///    one (`FaceMerger`).
///
/// Every level is one copy of the image computed from it (never a new decode), and one network
/// serves the coarse pass, the tiles and the second looks when they fit in a tile.
struct FaceSearch {
    let detector: OpenCVFaceDetector
    let options: DetectionOptions

    /// The smallest wanted face measures this many pixels in a level's tiles.
    static let levelFace = 12.0
    /// The largest face a level answers for, in its tiles' pixels (a level finds faces up to
    /// this and a bit more: its successor, three times coarser, starts at 12 × 3 = 36).
    static let levelLargestFace = 47.0
    /// From this size in the coarse copy (pixels) the coarse pass finds faces reliably.
    static let coarseReliableFace = 14.0
    /// Each tile level is this many times coarser than the one before.
    static let levelStep = 3.0
    static let tileSize = 640
    /// Tiles overlap by this much: more than the largest face a level answers for.
    static let tileOverlap = 64
    /// Side of a contrast-map cell (level pixels) and the deviation below which a cell is flat.
    static let contrastCell = 16
    static let flatDeviation: Float = 4
    /// Second looks: the face's size there, and the side of each crop.
    static let secondLookFace = 28.0
    static let secondLookCell = 128

    /// The faces in `image`, in its pixel coordinates, best first; with `options.rotations`,
    /// also in the image turned by quarter and half turns (mapped back).
    func faces(in image: VipsImage) throws -> [DetectedFace] {
        defer { detector.releaseNetworks() }
        let upright = try search(image)
        let turns: [QuarterTurn] = [.clockwise, .anticlockwise, .half]
        switch options.rotations {
        case .off:
            return upright
        case .fallback:
            guard upright.isEmpty else { return upright }
            for turn in turns {
                let found = try search(image, turned: turn)
                if !found.isEmpty { return found }
            }
            return []
        case .always:
            let all = try turns.flatMap { try search(image, turned: $0) }
            return FaceMerger(iou: options.nmsIoU).merged(upright + all)
        }
    }

    private func search(_ image: VipsImage, turned turn: QuarterTurn) throws -> [DetectedFace] {
        let turned = try image.rotated(turn.vipsAngle)
        return try search(turned).map { turn.unturn($0, width: Double(image.width), height: Double(image.height)) }
    }

    /// One orientation: the coarse pass, the tile levels, second looks, merged.
    private func search(_ image: VipsImage) throws -> [DetectedFace] {
        let longest = max(image.width, image.height)
        let coarseScale = min(1, Double(options.maxSide) / Double(longest))
        let coarse = try RGBPixels(coarseScale < 1 ? image.resize(scale: coarseScale) : image)
        let toImage = (x: Double(image.width) / Double(coarse.width), y: Double(image.height) / Double(coarse.height))
        let fitsTile = coarse.width <= Self.tileSize && coarse.height <= Self.tileSize
        let levels = detector.kind == .centerFace ? Self.levels(minFace: options.minFace, coarseScale: coarseScale) : []
        let lowest = options.minFace > 0 ? options.threshold / 2 : options.threshold
        let coarseFaces = try detector.run(coarse, networkSize: fitsTile && !levels.isEmpty ? (Self.tileSize, Self.tileSize) : nil,
                                           threshold: lowest, nmsIoU: options.nmsIoU)
            .map { $0.scaled(x: toImage.x, y: toImage.y) }
        if detector.kind == .cascade || options.minFace == 0 {
            return FaceMerger(iou: options.nmsIoU).merged(coarseFaces.filter { ($0.score ?? 1) >= options.threshold })
        }

        var found: [Sighting] = coarseFaces.map { Sighting(face: $0, scale: 1 / toImage.x) }
        let large = coarseFaces.filter { ($0.score ?? 0) >= options.threshold }.map(\.box)
        for scale in levels {
            found += try searchLevel(image, scale: scale, skipping: large, threshold: lowest)
        }
        let merger = FaceMerger(iou: options.nmsIoU)
        let sure = found.filter { $0.isSure(threshold: options.threshold) }.map(\.face)
        // Worth a second look: not found for sure elsewhere, wanted (about the smallest size
        // or larger; CenterFace's boxes are ~0.8 of a hand-marked face's width), and seen at a
        // resolution well below the second look's.
        let doubtful = merger.merged(found.filter { !$0.isSure(threshold: options.threshold) && $0.isWorthASecondLook(minFace: options.minFace) }
            .map(\.face), droppingInner: false)
            .filter { c in !sure.contains { merger.sameFace($0, c) } }
        let confirmed = doubtful.isEmpty ? [] : try SecondLook(detector: detector, mosaicSize: Self.tileSize, cell: Self.secondLookCell,
                                                              faceSize: Self.secondLookFace)
            .confirmed(doubtful, in: image, threshold: options.threshold)
        return merger.merged(sure + confirmed)
    }

    /// A detection and the scale (network pixels per image pixel) it was found at.
    struct Sighting {
        var face: DetectedFace
        var scale: Double

        /// Kept as found: at or above the threshold, and either clearly so or large enough in
        /// the network's input. Below 28 px there, false faces (a chest, two faces framed as
        /// one) reach 0.5–0.6 about once for every 200 real faces that do; measured on group
        /// photos made from the examples, none reached 0.6.
        func isSure(threshold: Double) -> Bool {
            let score = face.score ?? 0
            return score >= threshold && (score >= threshold + 0.1 || face.box.shorterSide * scale >= 28)
        }

        /// Whether looking again at `FaceSearch.secondLookFace` pixels would see it at least
        /// half as large again, and it is about `minFace` or larger.
        func isWorthASecondLook(minFace: Int) -> Bool {
            let size = face.box.shorterSide
            return size >= 0.6 * Double(minFace) && FaceSearch.secondLookFace / max(size, 1) >= 1.5 * scale
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

    /// One level: the image at `scale`, searched in tiles over its detailed parts.
    private func searchLevel(_ image: VipsImage, scale: Double, skipping faces: [FaceBox], threshold: Double) throws -> [Sighting] {
        let level = try RGBPixels(image.resize(scale: scale))
        let toImage = (x: Double(image.width) / Double(level.width), y: Double(image.height) / Double(level.height))
        let inLevel = faces.map { $0.scaled(x: 1 / toImage.x, y: 1 / toImage.y) }
        let regions = ContrastMap(level, cell: Self.contrastCell, ignoring: inLevel)
            .detailedRegions(minimumDeviation: Self.flatDeviation, margin: Self.tileOverlap / 2, width: level.width, height: level.height)
        let layout = TileLayout(covering: regions, width: level.width, height: level.height,
                                tileSize: Self.tileSize, overlap: Self.tileOverlap)
        var sightings: [Sighting] = []
        for tile in layout.tiles {
            let faces = try detector.run(level, region: tile, networkSize: (Self.tileSize, Self.tileSize),
                                         threshold: threshold, nmsIoU: options.nmsIoU)
            for face in faces where face.box.shorterSide <= Self.levelLargestFace && !Self.cut(face.box, by: tile, in: level.bounds) {
                sightings.append(Sighting(face: face.scaled(x: toImage.x, y: toImage.y), scale: 1 / toImage.x))
            }
        }
        return sightings
    }

    /// Whether `box` touches an edge of `tile` that is not an edge of the image: the face may
    /// go on beyond it, and the neighbouring tile holds it whole.
    static func cut(_ box: FaceBox, by tile: PixelRect, in image: PixelRect) -> Bool {
        let margin = 2.0
        return (tile.x > image.x && box.x <= Double(tile.x) + margin)
            || (tile.y > image.y && box.y <= Double(tile.y) + margin)
            || (tile.maxX < image.maxX && box.maxX >= Double(tile.maxX) - margin)
            || (tile.maxY < image.maxY && box.maxY >= Double(tile.maxY) - margin)
    }
}
