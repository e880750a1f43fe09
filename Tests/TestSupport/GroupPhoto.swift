import FaceDetector
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Vips

/// A group photo made from the example photos, with every face's box known by construction:
/// the photos are scaled so their faces have chosen sizes, mirrored at random and pasted on
/// a backdrop, and their faces' boxes (hand-marked by dlib's authors in `examples/faces/*.xml`,
/// checked by eye for the others) are scaled and moved with them.
///
/// Some example photos hold faces nobody marked (people at the back of a bar, figurines and a
/// magazine cover on a shelf): those are `unmarked` and count neither way when scoring.
public struct GroupPhoto {
    public init(image: VipsImage, faces: [FaceBox], unmarked: [FaceBox]) {
        self.image = image; self.faces = faces; self.unmarked = unmarked
    }

    public let image: VipsImage
    /// Every marked face, in the photo's pixels.
    public let faces: [FaceBox]
    /// Real faces nobody marked: finding them is neither a hit nor a false positive.
    public let unmarked: [FaceBox]

    /// The backdrop the photos are pasted on.
    public enum Backdrop: String, Sendable, CaseIterable {
        /// Fractal green texture at every scale, like grass or foliage: no flat area to skip.
        case grass
        /// A soft grey-beige studio backdrop (Perlin clouds), as in the benchmark's portraits.
        case studio
    }

    /// Lays `rows` × `columns` example photos on a `width` × `height` backdrop, one per cell,
    /// each scaled so its smallest face measures a size drawn from `faceSizes` (or less, where
    /// the photo would not fit its cell), placed at random in its cell. `darkness` in 0..<1
    /// darkens the photos (gamma 1 + 1.2 darkness, gain 1 - 0.4 darkness): a dim room.
    public static func make(width: Int, height: Int, rows: Int, columns: Int, faceSizes: ClosedRange<Double>,
                            backdrop: Backdrop = .grass, darkness: Double = 0, seed: UInt64 = 1) throws -> GroupPhoto {
        var random = SplitMix(seed: seed)
        var canvas = try backdropImage(backdrop, width: width, height: height, seed: Int(seed % 1000))
        var faces: [FaceBox] = [], unmarked: [FaceBox] = []
        let sources = try Source.all()
        var deck: [Source] = []
        let cellWidth = width / columns, cellHeight = height / rows
        for row in 0..<rows {
            for column in 0..<columns {
                if deck.isEmpty { deck = random.shuffled(sources) }
                let source = deck.removeLast()
                var photo = try VipsImage.load(path: source.path).autorotated()
                if photo.bands > 3 { photo = try photo.extractBands(0, count: 3) }
                let smallest = source.faces.map(\.shorterSide).min() ?? 100
                var scale = random.uniform(faceSizes) / smallest
                scale = min(scale, 0.85 * Double(cellWidth) / Double(photo.width), 0.85 * Double(cellHeight) / Double(photo.height))
                var placed = try photo.resize(scale: scale)
                let sx = Double(placed.width) / Double(photo.width), sy = Double(placed.height) / Double(photo.height)
                let mirrored = random.next() % 2 == 0
                if mirrored { placed = try placed.flipped("horizontal") }
                if darkness > 0 {
                    placed = try placed.linear(1 / 255, 0).math2("pow", constant: [1 + 1.2 * darkness])
                        .linear(255 * (1 - 0.4 * darkness), 0).cast(.uchar)
                }
                let x = column * cellWidth + Int(random.next() % UInt64(max(1, cellWidth - placed.width)))
                let y = row * cellHeight + Int(random.next() % UInt64(max(1, cellHeight - placed.height)))
                canvas = try canvas.inserting(placed, x: x, y: y)
                func place(_ box: FaceBox) -> FaceBox {
                    var b = box.scaled(x: sx, y: sy)
                    if mirrored { b.x = Double(placed.width) - b.maxX }
                    return b.offset(dx: Double(x), dy: Double(y))
                }
                faces += source.faces.map(place)
                unmarked += source.unmarked.map(place)
            }
        }
        return GroupPhoto(image: try canvas.inMemory(), faces: faces, unmarked: unmarked)
    }

    /// The photo turned clockwise by `turn` (a photo lying on its side), its boxes with it.
    public func turned(_ turn: QuarterTurn) throws -> GroupPhoto {
        let width = Double(image.width), height = Double(image.height)
        func move(_ b: FaceBox) -> FaceBox {
            switch turn {
            case .none: b
            case .clockwise: FaceBox(x: height - b.maxY, y: b.x, width: b.height, height: b.width)
            case .half: FaceBox(x: width - b.maxX, y: height - b.maxY, width: b.width, height: b.height)
            case .anticlockwise: FaceBox(x: b.y, y: width - b.maxX, width: b.height, height: b.width)
            }
        }
        return GroupPhoto(image: try image.rotated(turn.vipsAngle).inMemory(), faces: faces.map(move), unmarked: unmarked.map(move))
    }

    /// How well `found` matches the marked faces of at least `minFace` pixels (shorter side).
    /// A found box is a hit when it overlaps a marked face by an intersection over union of
    /// 0.3 or more (CenterFace frames faces taller and narrower than dlib's square marks: the
    /// two overlap by 0.5–0.8 at full size); a box on an unmarked face, or on a marked one
    /// smaller than `minFace`, counts neither way.
    public func score(_ found: [FaceBox], minFace: Double) -> Score {
        let wanted = faces.filter { $0.shorterSide >= minFace }
        let missed = wanted.filter { face in !found.contains { $0.iou(face) >= 0.3 } }
        let falsePositives = found.filter { box in
            !faces.contains { $0.iou(box) >= 0.3 }
                && !unmarked.contains { $0.contains(box.center) || $0.iou(box) >= 0.2 }
        }
        return Score(wanted: wanted.count, missed: missed, found: found.count, falsePositives: falsePositives)
    }

    public struct Score: CustomStringConvertible {
        public let wanted: Int
        public let missed: [FaceBox]
        public let found: Int
        public let falsePositives: [FaceBox]

        public var recall: Double { wanted == 0 ? 1 : Double(wanted - missed.count) / Double(wanted) }
        public var precision: Double { found == 0 ? 1 : Double(found - falsePositives.count) / Double(found) }
        public var description: String {
            String(format: "recall %d/%d = %.3f, precision %d/%d = %.3f", wanted - missed.count, wanted, recall,
                   found - falsePositives.count, found, precision)
                + missed.map { "\n  missed \($0.array.map { Int($0.rounded()) })" }.joined()
                + falsePositives.map { "\n  false positive \($0.array.map { Int($0.rounded()) })" }.joined()
        }
    }

    /// The backdrop: 8-bit sRGB, `width` × `height`.
    static func backdropImage(_ kind: Backdrop, width: Int, height: Int, seed: Int) throws -> VipsImage {
        func perlin(_ cell: Int, _ seed: Int) throws -> VipsImage {
            try VipsCall.image("perlin", ["width": .int(width), "height": .int(height), "cell_size": .int(cell), "seed": .int(seed)])
        }
        switch kind {
        case .studio:
            let noise = try perlin(400, seed)
            return try VipsImage.bandjoin([noise.linear(60, 150), noise.linear(55, 140), noise.linear(50, 125)])
                .cast(.uchar).reinterpreted(as: .srgb)
        case .grass:
            // Octaves from 512 px down to 4 px, each 0.85 of the one before: detail at every scale.
            var sum = try perlin(512, seed)
            var amplitude = 0.85
            for (i, cell) in [256, 128, 64, 32, 16, 8, 4].enumerated() {
                sum = try sum.add(perlin(cell, seed + i + 1).linear(amplitude, 0))
                amplitude *= 0.85
            }
            let shade = try sum.linear(45, 110)
            return try VipsImage.bandjoin([shade.linear(0.7, 0), shade.linear(1.0, 15), shade.linear(0.55, 0)])
                .cast(.uchar).reinterpreted(as: .srgb)
        }
    }

    /// An example photo and its faces.
    struct Source {
        let path: String
        let faces: [FaceBox]
        let unmarked: [FaceBox]

        /// dlib's marked photos, the two portraits and the collage, each with its faces.
        static func all() throws -> [Source] {
            var sources = try DlibFaces.marked().map { name, faces in
                Source(path: TestAssets.example("faces/" + name), faces: faces, unmarked: DlibFaces.unmarked[name] ?? [])
            }
            sources.append(Source(path: TestAssets.astronaut, faces: [KnownFaces.astronaut], unmarked: []))
            sources.append(Source(path: TestAssets.graceHopper, faces: [KnownFaces.graceHopper], unmarked: []))
            sources.append(Source(path: TestAssets.example("faces/bald_guys.jpg"), faces: KnownFaces.baldGuys,
                                  unmarked: [FaceBox(x: 0, y: 900, width: 300, height: 300)]))
            return sources.sorted { $0.path < $1.path }
        }
    }
}

/// Face boxes of the example photos outside dlib's marked set, checked by eye on drawn overlays.
public enum KnownFaces {
    public static let astronaut = FaceBox(x: 182, y: 58, width: 88, height: 120)
    public static let graceHopper = FaceBox(x: 175, y: 132, width: 182, height: 205)
    /// The 24 faces of `examples/faces/bald_guys.jpg` (CenterFace's boxes at full size).
    public static let baldGuys: [FaceBox] = [
        (54, 961, 144, 186), (61, 652, 170, 220), (62, 1255, 183, 245), (63, 20, 174, 252), (64, 335, 163, 231),
        (324, 421, 139, 186), (335, 223, 108, 134), (340, 26, 108, 145), (354, 1182, 208, 287), (395, 762, 214, 295),
        (542, 48, 191, 260), (558, 385, 175, 250), (764, 1189, 179, 251), (765, 772, 185, 252), (869, 361, 179, 233),
        (878, 45, 167, 251), (1055, 699, 189, 270), (1080, 1260, 172, 244), (1122, 1045, 129, 178), (1453, 1314, 122, 161),
        (1481, 67, 242, 350), (1650, 682, 94, 128), (1805, 1292, 138, 188), (1830, 408, 103, 147),
    ].map { FaceBox(x: $0.0, y: $0.1, width: $0.2, height: $0.3) }
}

/// dlib's hand-marked face boxes for the PASCAL VOC photos in `examples/faces`.
public enum DlibFaces {
    /// Each marked photo's file name and boxes, from `training.xml` and `testing.xml`.
    public static func marked() throws -> [(String, [FaceBox])] {
        var result: [(String, [FaceBox])] = []
        for file in ["training.xml", "testing.xml"] {
            let parser = BoxListParser()
            let xml = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: TestAssets.example("faces/" + file))))
            xml.delegate = parser
            guard xml.parse() else { throw CocoaError(.fileReadCorruptFile) }
            result += parser.images
        }
        return result
    }

    /// Faces in those photos that dlib's boxes leave out (background people, pictures of faces).
    public static let unmarked: [String: [FaceBox]] = [
        "2008_002079.jpg": [(279, 39, 12, 15), (476, 75, 11, 13), (417, 87, 11, 14), (460, 75, 10, 13)],
        "2008_004176.jpg": [(20, 0, 330, 22), (25, 280, 25, 25)],  // figurines on the shelf, a magazine cover
        "2008_007676.jpg": [(453, 127, 11, 13), (409, 118, 18, 25)],
    ].mapValues { $0.map { FaceBox(x: $0.0, y: $0.1, width: $0.2, height: $0.3) } }

    final class BoxListParser: NSObject, XMLParserDelegate {
        var images: [(String, [FaceBox])] = []

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if element == "image", let file = attributes["file"] {
                images.append((file, []))
            } else if element == "box", !images.isEmpty,
                      let x = attributes["left"].flatMap(Double.init), let y = attributes["top"].flatMap(Double.init),
                      let w = attributes["width"].flatMap(Double.init), let h = attributes["height"].flatMap(Double.init) {
                images[images.count - 1].1.append(FaceBox(x: x, y: y, width: w, height: h))
            }
        }
    }
}

extension SplitMix {
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(next() >> 11) / Double(1 << 53)
    }

    mutating func shuffled<T>(_ items: [T]) -> [T] { items.shuffled(using: &self) }
}
