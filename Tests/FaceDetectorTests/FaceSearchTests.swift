import Testing
import TestSupport
import Vips
@testable import FaceDetector

@Suite struct FaceSearchTests {
    let detector: OpenCVFaceDetector

    init() throws {
        detector = try .centerFace(modelPath: TestAssets.model)
    }

    /// 20 example photos on grass, faces from 24 to 48 px in an 8 MP photo: the coarse pass
    /// alone sees them at 4–9 px and misses most; by default every one is found.
    @Test func findsTheSmallFacesOfAGroupPhoto() throws {
        let group = try GroupPhoto.make(width: 3500, height: 2300, rows: 4, columns: 5, faceSizes: 24...48, seed: 6)
        let found = try detector.detect(in: group.image).map(\.box)
        let score = group.score(found, minFace: 24)
        #expect(score.wanted >= 80)
        #expect(score.recall >= 0.97 && score.precision >= 0.97, "\(score)")
        let coarse = group.score(try detector.detect(in: group.image, options: DetectionOptions(minFace: 0)).map(\.box), minFace: 24)
        #expect(coarse.recall < 0.5, "the coarse pass alone: \(coarse)")
    }

    @Test func findsThemInADimRoomOnAStudioBackdrop() throws {
        let group = try GroupPhoto.make(width: 3000, height: 2000, rows: 3, columns: 4, faceSizes: 26...40,
                                        backdrop: .studio, darkness: 0.6, seed: 11)
        let score = group.score(try detector.detect(in: group.image).map(\.box), minFace: 24)
        #expect(score.recall >= 0.97 && score.precision >= 0.97, "\(score)")
    }

    /// A portrait enlarged to 12 MP gives the faces it gives at its own size: no face lost, no
    /// false one from the tiles (faces nobody marked, like the crowd behind a collage's
    /// photo, may be found in addition).
    @Test(arguments: ["astronaut.png", "grace_hopper.jpg", "faces/2008_002506.jpg", "faces/dogs.jpg", "faces/Tom_Cruise_avp_2014_4.jpg"])
    func aPortraitGivesTheSameFacesEnlarged(name: String) throws {
        let photo = try VipsImage.load(path: TestAssets.example(name))
        let small = try detector.detect(in: photo)
        let scale = (12_000_000 / Double(photo.width * photo.height)).squareRoot()
        let large = try detector.detect(in: photo.resize(scale: scale)).map { $0.scaled(x: 1 / scale, y: 1 / scale) }
        #expect(large.count == small.count, "\(small.map(\.box)) at its size, \(large.map(\.box)) enlarged")
        for face in small {
            #expect(large.contains { $0.box.iou(face.box) >= 0.5 }, "\(face.box) lost when enlarged")
        }
    }

    /// Portraits packed edge to edge, so that every tile seam cuts through faces: each found once.
    @Test func facesAcrossTileSeamsAreFoundOnce() throws {
        let scale = 0.32
        let portrait = try VipsImage.load(path: TestAssets.astronaut).resize(scale: scale)   // 164 px, the face 28 × 38
        let face = KnownFaces.astronaut.scaled(x: Double(portrait.width) / 512, y: Double(portrait.height) / 512)
        let columns = 3000 / portrait.width, rows = 2000 / portrait.height
        let canvas = try portrait.tiled(across: columns, down: rows).inMemory()
        let faces = (0..<rows).flatMap { row in
            (0..<columns).map { face.offset(dx: Double($0 * portrait.width), dy: Double(row * portrait.height)) }
        }
        let found = try detector.detect(in: canvas).map(\.box)
        let missed = faces.filter { f in !found.contains { $0.iou(f) >= 0.3 } }
        let doubled = faces.filter { f in found.filter { $0.iou(f) >= 0.3 }.count > 1 }
        #expect(missed.isEmpty, "\(missed.count) of \(faces.count) missed: \(missed)")
        #expect(doubled.isEmpty, "found twice: \(doubled)")
        #expect(found.count == faces.count, "\(found.count) boxes for \(faces.count) faces")
    }

    /// A group photo lying on its side: upright, CenterFace finds some of its faces, turned and
    /// with low scores; with rotations they are found the right way up, in the coordinates of
    /// the photo as given.
    @Test func sidewaysGroupPhotoIsSearchedTurned() throws {
        let turned = try GroupPhoto.make(width: 3000, height: 2000, rows: 3, columns: 4, faceSizes: 40...60, backdrop: .studio, seed: 5)
            .turned(.clockwise)
        let sideways = turned.image
        let upright = turned.score(try detector.detect(in: sideways).map(\.box), minFace: 24)
        #expect(upright.recall < 0.8, "\(upright)")
        for mode in [RotationSearch.fallback, .always] {
            let score = turned.score(try detector.detect(in: sideways, options: DetectionOptions(rotations: mode)).map(\.box), minFace: 24)
            #expect(score.recall >= 0.95 && score.precision >= 0.95, "\(mode): \(score)")
        }
    }

    @Test func theLandmarksOfTurnedFacesSayWhichWayToTurnThePhoto() throws {
        let upright = try VipsImage.load(path: TestAssets.group)
        #expect(FaceSearch.turnMakingUpright(try detector.detect(in: upright)) == nil)
        for turn in [QuarterTurn.clockwise, .anticlockwise, .half] {
            let faces = try detector.detect(in: upright.rotated(turn.vipsAngle))
            let back: QuarterTurn = switch turn { case .clockwise: .anticlockwise; case .anticlockwise: .clockwise; default: turn }
            #expect(FaceSearch.turnMakingUpright(faces) == back, "\(turn)")
        }
    }

    /// A photo small enough to need no tiles runs its one pass at its own size, padded to 32:
    /// a 500 × 375 photo took twice the time and ~95 MB more memory in the tiles' 640 × 640
    /// network. Releasing the network leaves none kept.
    @Test(arguments: [("faces/2008_002506.jpg", 512, 384), ("faces/2008_001009.jpg", 384, 480), ("grace_hopper.jpg", 512, 608)])
    func aSmallPhotoRunsTheNetworkAtItsOwnSize(name: String, width: Int, height: Int) throws {
        let photo = try VipsImage.load(path: TestAssets.example(name))
        #expect(try !detector.detect(in: photo).isEmpty)
        let size = try #require(detector.networkSize)
        #expect(size.width == width && size.height == height, "\(name): a \(size.width) × \(size.height) network")
        detector.releaseNetworks()
        #expect(detector.networkSize == nil)
    }

    @Test func levelsReachFromTheSmallestFaceToTheCoarsePass() {
        // 12 MP (4000 px) and 24 MP (6000 px): one level at half size; the coarse pass takes
        // faces from 75 and 112 px, the level up to 120.
        #expect(FaceSearch.levels(minFace: 24, coarseScale: 640.0 / 4000) == [0.5])
        #expect(FaceSearch.levels(minFace: 24, coarseScale: 640.0 / 6000) == [0.5])
        // 50 MP (8660 px): the coarse pass takes faces from 162 px, so a second level at a sixth.
        #expect(FaceSearch.levels(minFace: 24, coarseScale: 640.0 / 8660) == [0.5, 0.5 / 3])
        // Up to 1280 px the coarse copy shows a 24 px face at 12 px or more: no tiles.
        #expect(FaceSearch.levels(minFace: 24, coarseScale: 0.5).isEmpty)
        #expect(FaceSearch.levels(minFace: 0, coarseScale: 0.1).isEmpty)
        #expect(FaceSearch.levels(minFace: 48, coarseScale: 640.0 / 4000) == [0.25])
    }
}
