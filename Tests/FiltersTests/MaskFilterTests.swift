import Foundation
import Testing
import TestSupport
import Vips
@testable import Filters

@Suite struct MaskFilterTests {
    let crop: VipsImage
    let mask = MaskFilter()
    /// Grace Hopper's landmarks in the crop below (from CenterFace, crop origin 120, 60).
    let face = FaceRegion(x: 55, y: 72, width: 182, height: 205, landmarks: [
        SIMD2(101.4, 140.0), SIMD2(184.3, 132.2), SIMD2(145.9, 177.4), SIMD2(115.9, 219.7), SIMD2(184.0, 213.1),
    ])

    init() throws {
        crop = try VipsImage.load(path: TestAssets.graceHopper).crop(x: 120, y: 60, width: 280, height: 340)
    }

    func render(_ values: [String: String], faces: [FaceRegion]? = nil) throws -> VipsImage {
        let settings = try FilterRegistry.standard.settings(for: "mask", assignments: values)
        return try mask.apply(to: crop, settings: settings, context: FilterContext(faceSize: 182, faces: faces ?? [face]))
    }

    /// Mean per-channel change over a square of `radius` around `point`.
    func change(_ out: VipsImage, at point: SIMD2<Double>, radius: Int) throws -> Double {
        try PixelStats.meanAbsoluteDifference(out, crop, x: Int(point.x) - radius, y: Int(point.y) - radius,
                                              width: 2 * radius, height: 2 * radius)
    }

    @Test func builtInStickersAreShapesOnTransparentGround() throws {
        for feature in FacialFeature.allCases {
            let art = try StickerLibrary.sticker(for: feature)
            #expect(art.bands == 4 && art.format == .uchar, "\(feature)")
            let alpha = try art.extractBands(3)
            // Corners transparent; a real, solid shape in between.
            #expect(try alpha.crop(x: 0, y: 0, width: 4, height: 4).maximum() == 0, "\(feature)")
            let covered = try alpha.relational("more", constant: [250]).average() / 255
            #expect(covered > 0.1 && covered < 0.9, "\(feature) covers \(covered)")
        }
        // Drawn once: a second request gives the very same image.
        #expect(try StickerLibrary.sticker(for: .nose) === StickerLibrary.sticker(for: .nose))
    }

    @Test func featuresParameterTakesAnyOfTheFeaturesInAFixedOrder() throws {
        let settings = try FilterRegistry.standard.settings(for: "mask", assignments: ["features": "beard, EYES"])
        #expect(settings.list("features") == ["eyes", "beard"])
        #expect(try FilterRegistry.standard.settings(for: "mask", assignments: [:]).list("features") == ["eyes", "nose", "mouth"])
        #expect(throws: FilterError.self) { try FilterRegistry.standard.settings(for: "mask", assignments: ["features": "eyes,ears"]) }
        #expect(try FilterRegistry.standard.settings(for: "mask", assignments: ["features": ""]).list("features").isEmpty)
    }

    @Test func stickersLandOnTheirFeaturesAndNowhereElse() throws {
        let out = try render(["features": "eyes,nose"])
        #expect(out.width == crop.width && out.height == crop.height && out.bands == 3 && out.format == .uchar)
        for eye in face.landmarks[0...1] {
            #expect(try change(out, at: eye, radius: 12) > 40, "eye at \(eye)")
        }
        #expect(try change(out, at: face.landmarks[2], radius: 8) > 40)
        // The mouth has no sticker, and the corners of the crop are untouched.
        #expect(try change(out, at: SIMD2(150, 217), radius: 8) == 0)
        #expect(try PixelStats.meanAbsoluteDifference(out, crop, x: 0, y: 0, width: 40, height: 40) == 0)
        // No features: the crop comes back unchanged.
        #expect(try render(["features": ""]).pixels() == crop.pixels())
    }

    @Test func noseStickerIsTheClownsRed() throws {
        let out = try render(["features": "nose"])
        let nose = try out.crop(x: 141, y: 173, width: 9, height: 9)
        let red = try nose.extractBands(0).average(), green = try nose.extractBands(1).average()
        #expect(red > 150 && green < 80, "nose colour r \(red) g \(green)")
    }

    @Test func scaleParametersGrowTheSticker() throws {
        func changedPixels(_ scale: String) throws -> Double {
            let out = try render(["features": "nose", "nose-scale": scale])
            return try out.cast(.float).subtract(crop.cast(.float)).absolute().bandMean()
                .relational("more", constant: [30]).average()
        }
        let small = try changedPixels("1"), large = try changedPixels("2")
        // Twice the width, about four times the area.
        #expect(large / small > 3 && large / small < 5, "area ratio \(large / small)")
    }

    @Test func faceWithoutLandmarksGetsStickersAtTypicalPlaces() throws {
        let boxOnly = FaceRegion(x: face.x, y: face.y, width: face.width, height: face.height)
        let out = try render(["features": "nose"], faces: [boxOnly])
        let estimated = LandmarkFrame(estimatedIn: (face.x, face.y, face.width, face.height)).nose
        #expect(try change(out, at: estimated, radius: 8) > 40)
    }

    @Test func stickerFolderReplacesTheDrawingsItHas() throws {
        let folder = try TestAssets.temporaryFolder("stickers")
        // A plain blue, opaque nose sticker.
        try VipsImage.solid(width: 40, height: 40, pixel: [20, 60, 250]).savePNG(path: folder + "/nose.png")
        let out = try render(["features": "nose,eyes", "stickers": folder])
        let nose = try out.crop(x: 141, y: 173, width: 9, height: 9)
        #expect(try nose.extractBands(2).average() > 230 && nose.extractBands(0).average() < 40)
        // The eyes still get the built-in googly eyes (white around the pupil).
        #expect(try change(out, at: face.landmarks[0], radius: 12) > 40)
        #expect(throws: FilterError.self) { try render(["stickers": folder + "/missing"]) }
        let empty = try TestAssets.temporaryFolder("no-stickers")
        #expect(throws: FilterError.self) { try render(["stickers": empty]) }
    }

    @Test func oversizedStickerFilesAreRefusedUnread() throws {
        let folder = try TestAssets.temporaryFolder("wide-stickers")
        // Float RGB (12 bytes a pixel) saved as TIFF under the sticker's name: not a sticker.
        try VipsImage.solid(width: 40, height: 40, pixel: [1, 2, 3]).cast(.float).save(path: folder + "/nose.tif")
        try FileManager.default.moveItem(atPath: folder + "/nose.tif", toPath: folder + "/nose.png")
        let error = #expect(throws: FilterError.self) { try render(["features": "nose", "stickers": folder]) }
        #expect(error?.description.contains("nose.png: cannot use this picture (too large to be a sticker (40×40 pixels of 3 32-bit channels;") == true)
    }

    @Test func placementsFollowTheFaceFrame() throws {
        let frame = try #require(LandmarkFrame(landmarks: face.landmarks))
        let eyes = StickerPlacement.placements(for: .eyes, in: frame, scale: 1)
        #expect(eyes.map(\.centre) == [frame.leftEye, frame.rightEye])
        #expect(abs(eyes[0].width - 0.62 * frame.interocular) < 1e-9)
        #expect(abs(eyes[0].degrees - frame.rollDegrees) < 1e-9)
        let beard = StickerPlacement.placements(for: .beard, in: frame, scale: 1)[0]
        // Below the mouth, along the eye–mouth direction.
        #expect(beard.centre.y > frame.mouthCentre.y)
    }

    /// A clip draws the same sticker at nearly the same size on every frame: it is shrunk once
    /// per size step (an eighth of an octave), and another picture never gets its shrunk copy.
    @Test func stickersAreShrunkOncePerSizeStep() throws {
        let nose = try StickerLibrary.sticker(for: .nose), eye = try StickerLibrary.sticker(for: .eyes)
        let first = try StickerPlacement.prepared(nose, toAbout: 40)
        #expect(try StickerPlacement.prepared(nose, toAbout: 41) === first)
        #expect(first.width >= 41 && first.width <= 44, "\(first.width)")
        #expect(try StickerPlacement.prepared(nose, toAbout: 60) !== first)
        #expect(try StickerPlacement.prepared(eye, toAbout: 40) !== first)
        // A picture made now, the same size as one kept, gets its own copy.
        let fresh = try VipsImage.solid(width: nose.width, height: nose.height, pixel: [0, 0, 255, 255]).cast(.uchar)
        let shrunk = try StickerPlacement.prepared(fresh, toAbout: 40).image()
        #expect(try shrunk.extractBands(2).average() > 250 && shrunk.extractBands(0).maximum() == 0)
    }
    /// Stickers are drawn over the crop's bytes as libvips turns them (`affine`, premultiplied)
    /// and lays them (`composite2`, "over") in floating point, cast back once: every feature,
    /// turned a little, compared with those operations.
    @Test func stickersOverBytesAreLibvipsTurnAndBlend() throws {
        let frame = try #require(LandmarkFrame(landmarks: face.landmarks))
        var stickers: [(StickerPlacement, VipsImage)] = []
        for feature in [FacialFeature.beard, .mouth, .nose, .eyes] {
            for var placement in StickerPlacement.placements(for: feature, in: frame, scale: 1.3) {
                placement.degrees += 17
                stickers.append((placement, try StickerLibrary.sticker(for: feature)))
            }
        }
        // One more, half off the crop's corner.
        stickers.append((StickerPlacement(feature: .nose, centre: SIMD2(4, 6), width: 40, degrees: -30), try StickerLibrary.sticker(for: .nose)))
        let drawn = try StickerPlacement.draw(stickers, over: crop)

        var reference = try crop.cast(.float)
        for (placement, sticker) in stickers {
            let values = try StickerPlacement.prepared(sticker, toAbout: placement.width)
            let art = try values.image()
            let box = placement.box(of: values)
            let rest = placement.width / Double(art.width), t = placement.degrees * .pi / 180
            let (c, s) = (cos(t) * rest, sin(t) * rest)
            let turned = try art.affine([c, -s, s, c], from: SIMD2(-Double(art.width) / 2, -Double(art.height) / 2),
                                        to: SIMD2(placement.centre.x - Double(box.x0), placement.centre.y - Double(box.y0)),
                                        area: [0, 0, box.x1 - box.x0, box.y1 - box.y0], premultiplied: true)
            reference = try reference.composited(turned, x: box.x0, y: box.y0, premultiplied: true)
        }
        let expected = try reference.extractBands(0, count: 3).cast(.uchar)
        let a = try drawn.pixels(), b = try expected.pixels()
        #expect(a.count == b.count)
        let differences = zip(a, b).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        let off = differences.filter { $0 > 2 }.count

        #expect(mean < 0.03, "mean difference \(mean)")
        // On the stickers' soft rims a few values (0.2 %, turned 17° and scaled 1.3) differ by
        // up to a dozen levels: libvips places its samples a hair differently there.
        #expect(off < 3 * differences.count / 1000, "\(off) of \(differences.count) values differ by more than 2")
        #expect(try change(drawn, at: face.landmarks[2], radius: 6) > 40)
    }
}
