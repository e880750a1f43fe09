import Foundation
import Filters
import Testing
import TestSupport
import Vips
@testable import SketchEase

/// The styled region follows the head: on synthetic heads (skin face, dark hair, plain
/// backdrop) the head matte covers the hair and leaves the backdrop, the face matte leaves the
/// hair, and neighbours' heads stay apart.
@Suite struct RegionMatteTests {
    /// A 400×400 head: a skin-coloured face ellipse over a dark-brown hair ellipse reaching
    /// above it, on a light blue-grey backdrop; `centreX` moves it sideways.
    static func head(on base: VipsImage? = nil, centreX: Double = 200) throws -> VipsImage {
        let backdrop = try base ?? VipsImage.solid(width: 400, height: 400, pixel: [196, 208, 222]).reinterpreted(as: .srgb)
        let hair = try VipsImage.solid(width: 400, height: 400, pixel: [62, 44, 30])
        let skin = try VipsImage.solid(width: 400, height: 400, pixel: [222, 178, 150])
        let withHair = try inside(centreX, 185, 82, 105).ifThenElse(hair, backdrop)
        return try inside(centreX, 215, 62, 80).ifThenElse(skin, withHair).reinterpreted(as: .srgb)
    }

    /// 255 inside the ellipse centred (cx, cy) with semi-axes rx, ry on a 400×400 picture, else 0.
    static func inside(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double) throws -> VipsImage {
        let o = try VipsImage.coordinates(width: 400, height: 400).linear([1 / rx, 1 / ry], [-cx / rx, -cy / ry])
        let r = try o.multiply(o)
        return try r.extractBands(0).add(r.extractBands(1)).relational("less", constant: [1])
    }

    static func face(centreX: Double = 200) -> StyledFace {
        let box = FaceBox(x: centreX - 60, y: 145, width: 120, height: 140)
        let frame = LandmarkFrame(estimatedIn: (box.x, box.y, box.width, box.height))
        return StyledFace(box: box, style: try! .named("pencil"), landmarks: frame.landmarks.map { Point(x: $0.x, y: $0.y) })
    }

    static func mean(_ mask: VipsImage, _ x: Int, _ y: Int, _ w: Int, _ h: Int) throws -> Double {
        try mask.crop(x: x, y: y, width: w, height: h).average() / 255
    }

    /// A tall GIF the image fuzzer made (51 × 9523, its palette's few colours in long runs),
    /// with the fuzzer's box over the middle half of it: a strip 25 pixels wide and 4,761 tall.
    static let tallGIF = """
        R0lGODlhMwAzAIcAAAAAALuyq+JtR+RxS9xoQ7CoocK5sgUDAgkGBg8KCcvEwdDFv9DIxNvSz9vPyb+1sc3DvLaxsOV0Tc7L
        z7+zrOqAWXQJFMjBv+JoQ7mvqLSro91jPcW7tV0HFtpbNce+upyXltXMx9ZgOs9WMd/Y19bPz8rAu0Q/Qq6sr9rU1XVxcSYj
        IrWtqMq+t21paqWfmaaOao6IhsS7uxoVFp0pC38PE9hlP494VNva36yoqTAWBru2tNXIwWNcX8xQKr25ueh2VOh8VVBKS+fd
        2t1vSrOin+R5UtbQ1x4GA6OgoeHTzci+tL5LJIeAe6ygnRMHLtRbNmkMGeXDsYF3cRMDA6ublJeCX+/s9JmSjbpCGbqvpKil
        pB8cG9DDyFVQTh4PP15ZVNjX23VlUnVbLcxaNtp+XJEpE8ZJJKGYkaMwFJBUSLA2EhQTEZSMibSooNm2n4F8fuqGYTw5MNVV
        LiUZU8jEyJKNld5dOolvSkg0EoNzYZWJf25kYIBnPshMLEcxMNKslatfVOPg4ern7KSGgjczMh4UCV9OPIYSGsRRKEIoAigU
        EXorF6M8H////62mmS0qKLWpm1A9GLehhVdKVzQvKg0FHJV8cbxLLsFFH62Wdc9kSrRQMXdKQreytsJXM09IP2FTXWdgVGQC
        E3VgOzwmJTgmX9lrSeC9qjMgD6g+J4wcE5VINFAQCo5wru+QbLeopdOVWfj283duZnsnLqhrZJ6ThVlEJTweAbFCJFEiG0AR
        DcVhQMBPSdCyl3k3NsWhiKJSN3tymdOkjaubvKxcQXBLnMBxWeuXiIEVILOIidbH0sidnDAlQL65xJFYXIh6jKiXjI8sLG9S
        EGNPSmgkIPTWwJU4ImBYTIVUUtWFcad/a9C1qcerlbuCcbeXferLtcVcYPXt5Ytcm3deoXASH9zLwl8/CGlQLEo3c5mVolAz
        AVA5PbdEPJVWkJyIrc23kWZXePzh15I7XnZgepRNdWJOiV8xPoxmdJBbgZuVqZ53XpBrW382ZKxxHwAAACH/C05FVFNDQVBF
        Mi4wAwEAAAAh+QQEAAAAACwAAAAAMwAzJQAI/wBzWHripU2OLTlyoIigoQCLBxw4GFBw4cMFGRcmlOiigOIFExcUMGgQwgSH
        B3jOHXLipAqaPU2mTLHzpJktWxFQ6IzAsEAAAwZChnzgJlokCgpKKPjwwQQEpkkdhAihZdo5XHtYsETTJiadJ5Yo9TDAsyyL
        nxyYfrR148YkeDBu2OKw1GkLCAscOGhAYtK0abhEPShQ4AWIrl8HftFgIECEDBkeLDEhUoGJPan6wJg0yQqeMXgCMDCxoDTe
        EA5SwNAEA9ehHRoaJsHSxNQXBE+exFiSQYMbDWjpRrqk59aN1VbajhlDqjIDBi3uMkhhZUwfRYcuJGSRBEQMaF9mhP9qFmqJ
        lkiRNGih8PMRKXSe+xyHAcPKLUmS9pAozaPFkiUQCGJFH2MooscEW3iSQ3d2QEMHF49Q0owWWrjxWwYUUqAHKaTg8VkfViCX
        x4hikCAVDxAswQEEV2iy3DqRTJDEDihs0Z0pdFhyQjNfoGGAG48Al2EffXAIAx5tEShJHvgdwkAIpZlgAAcM4ADKOdOs4waC
        P0RwUBJ05DjQE00YQNhD7D1wAzp53CAFKuBI4QsMt+iQCpMGjLbAEhRQsMAELqSyjiIFyOiMJygsiOMTuFHyQmxnPfAABR+I
        oYgkm23zhjXdfEMnEorc8t8H0bUQ0RFhVKKIIlUgeMEOCgEAf9QdkBIgC2EZBKCrpB+goUMe3XTqyxuaXDKgDoqIAQEFEd3l
        lDMoCIELVnVowIAMXcgwggFkIf8LZXAygQm84mXIoBaB2AQBGisBK9sgFzoOggQGIIANiNkGjVBDFYrxCV7wwgYSzsIaTgGK
        J6vYzszQxo2DIGgeZyIXApDAKcIRjk3MmABM4IQ3htANVtADGoR4hjbWkAYiHKIHINjBDl4ABkdeWgbMQMYryOrlDdzhDEQO
        xziMYQx3hAMDp1jDJ8AhDiUEIx76A3bgBTOAcE2ggVFwDVlwDWZABiIwAgQgAQQwAASQBhZgBj4wYmSQCXewAfLwCNEgCkhA
        BTgEAF4APzOHAGAUA0LABrYzA0KAAFFgAWlgBq0QXUSweCNGBDaACbVgDsOwCaeAhJ8QDOJgC3vAB13odboUeCvQAypwAud3
        AD3CcAIWUA5mEAU1kAU2QAAiMAcCMFNBIALeIAhXwA169gm/0AnZMAVVMAWFCHhsIAQ9UAjINwPx8wyjQIlmQANs5gMEEASL
        FwjVsAveQgLHIACNMAUU0AqdwAF7UHqmN0mOc04rAAm28gsdQAPWeAYeIAEOxgudQAkzQAUJxACBsAFm8AvYwAiB8ABN4IWm
        t2JcMD9OcAm0UAPW2AiMoApkwAihYHiWYAqm0BKcgGrXkAqtcAwMwA+LwIzteE5sUHOFEBAAOw==
        """

    /// A box no face has (the strip above) gets its region's shape without a cut, and is drawn
    /// in a moment. On the build before, GrabCut ran on that strip for more than five minutes
    /// (and this test with it).
    @Test func aStripNoFaceHasIsDrawnWithoutAHang() throws {
        let folder = try TestAssets.temporaryFolder("strip")
        let path = folder + "/tall.gif"
        try #require(Data(base64Encoded: Self.tallGIF, options: .ignoreUnknownCharacters)).write(to: URL(fileURLWithPath: path))
        let photo = try Photo.load(path: path)
        #expect(photo.width == 51 && photo.height == 9523)
        let strip = StyledFace(box: FaceBox(x: Double(photo.width) / 4, y: Double(photo.height) / 4,
                                            width: Double(photo.width) / 2, height: Double(photo.height) / 2), style: try .named("pencil"))
        let mask = try FaceCompositor().regionMask(photo.rgb, faces: [strip])
        #expect(try Self.mean(mask, 20, 4000, 10, 1500) > 0.9, "the strip's middle is in its region")
        let out = try FaceCompositor().render(photo.rgb, faces: [strip])
        #expect(out.width == photo.width && out.height == photo.height)
    }

    @Test func headCoversTheHairAndLeavesTheBackdrop() throws {
        let mask = try FaceCompositor().regionMask(Self.head(), faces: [Self.face()])
        #expect(try Self.mean(mask, 180, 200, 40, 40) > 0.95, "face")
        #expect(try Self.mean(mask, 185, 90, 30, 15) > 0.8, "hair above the face")
        #expect(try Self.mean(mask, 125, 170, 10, 30) > 0.7, "hair beside the face")
        #expect(try Self.mean(mask, 20, 20, 60, 60) == 0, "backdrop")
        #expect(try Self.mean(mask, 90, 120, 15, 15) < 0.1, "backdrop just beside the hair")
    }

    /// An ear beside a cheek is the head's: on one of the portraits of `bald_guys.jpg` (cut out,
    /// the detector's box and landmarks), the cut took the image-left ear for backdrop, and a
    /// drawn face had an ear in photo colour beside it. The pale backdrop beside the ear stays out.
    @Test func anEarBesideTheCheekIsInTheHead() throws {
        let photo = try VipsImage.load(path: TestAssets.example("faces/bald_guys.jpg")).crop(x: 324, y: 715, width: 354, height: 460)
        let landmarks = [Point(x: 132.7, y: 169.1), Point(x: 233.7, y: 182.6), Point(x: 176.2, y: 233.6),
                         Point(x: 123.7, y: 270.3), Point(x: 209.5, y: 280.8)]
        let face = StyledFace(box: FaceBox(x: 69.7, y: 53.9, width: 216.4, height: 296.2), style: try .named("pencil"), landmarks: landmarks)
        let mask = try FaceCompositor().regionMask(photo, faces: [face])
        let ear = try Self.mean(mask, 38, 150, 18, 65), beside = try Self.mean(mask, 2, 60, 20, 120)
        print("the ear \(ear), the backdrop beside it \(beside)")
        #expect(ear > 0.8, "the ear: \(ear)")
        #expect(beside < 0.1, "the backdrop beside it: \(beside)")
    }

    /// A bald head whose scalp touches a strip of backdrop of its own colour rising to the top
    /// of the picture (as a pale blur behind a bald scalp does): the cut joins the two, and the
    /// head's region keeps its dome and leaves the strip.
    @Test func backdropRisingFromTheScalpIsLeftOut() throws {
        let coords = try VipsImage.coordinates(width: 400, height: 400)
        let scalp = try Self.inside(200, 190, 70, 110)
        let strip = try coords.extractBands(0).relational("moreeq", constant: [225])
            .boolean("and", coords.extractBands(0).relational("less", constant: [255]))
            .boolean("and", coords.extractBands(1).relational("less", constant: [110]))
        let backdrop = try VipsImage.solid(width: 400, height: 400, pixel: [196, 208, 222])
        let skin = try VipsImage.solid(width: 400, height: 400, pixel: [222, 178, 150])
        let photo = try scalp.boolean("or", strip).ifThenElse(skin, backdrop).reinterpreted(as: .srgb)
        let mask = try FaceCompositor().regionMask(photo, faces: [Self.face()])
        #expect(try Self.mean(mask, 180, 200, 40, 40) > 0.95, "face")
        #expect(try Self.mean(mask, 185, 95, 30, 15) > 0.8, "the top of the scalp")
        #expect(try Self.mean(mask, 228, 50, 24, 20) < 0.1, "the strip above the scalp")
    }

    /// A person's region is its head's, as the head region cuts it, and below the chin its body:
    /// on Grace Hopper's portrait, her jacket down to the picture's edge, and beside her head no
    /// more of the flag and sky than the head region takes. (Cut with the body, the head lost
    /// hair and scalp the head's own cut keeps: the astronaut's hair, an old man's scalp.)
    @Test func aPersonIsItsHeadAndBelowTheChinItsBody() throws {
        let photo = try Photo.load(path: TestAssets.graceHopper)
        let face = StyledFace(box: FaceBox(x: 175, y: 132, width: 182, height: 205), style: try .named("pencil"))
        let head = try FaceCompositor().regionMask(photo.rgb, faces: [face])
        let person = try FaceCompositor(options: RenderOptions(region: .person)).regionMask(photo.rgb, faces: [face])
        let lessThanHead = try person.cast(.short).subtract(head.cast(.short)).minimum()
        #expect(lessThanHead >= 0, "the person's region holds the head's everywhere (\(lessThanHead))")
        let jacket = (person: try Self.mean(person, 60, 500, 100, 80), head: try Self.mean(head, 60, 500, 100, 80))
        #expect(jacket.person > 0.8 && jacket.head < 0.1, "the jacket: \(jacket)")
        let besideHead = (person: try Self.mean(person, 20, 150, 100, 150), head: try Self.mean(head, 20, 150, 100, 150))
        #expect(abs(besideHead.person - besideHead.head) < 0.01, "beside the head: \(besideHead)")
    }

    /// Where the cut finds no body (the backdrop goes on under the chin), a person's region is
    /// its head's: nothing is drawn in the likely body's shape, a band down from the chin, as
    /// it was where the cut was not trusted.
    @Test func aPersonWithNoBodyToCutIsItsHead() throws {
        let head = try FaceCompositor().regionMask(Self.head(), faces: [Self.face()])
        let person = try FaceCompositor(options: RenderOptions(region: .person)).regionMask(Self.head(), faces: [Self.face()])
        #expect(try Self.mean(person, 140, 350, 120, 50) < 0.05, "under the chin")
        #expect(try person.cast(.short).subtract(head.cast(.short)).absolute().maximum() <= 1, "the head's region")
    }

    @Test func faceLeavesTheHair() throws {
        let compositor = FaceCompositor(options: RenderOptions(region: .face))
        let mask = try compositor.regionMask(Self.head(), faces: [Self.face()])
        #expect(try Self.mean(mask, 180, 200, 40, 40) > 0.95)
        #expect(try Self.mean(mask, 185, 88, 30, 10) < 0.2, "hair above the face")
    }

    @Test func neighboursHeadsStayApart() throws {
        let two = try Self.head(on: Self.head(centreX: 110), centreX: 290)
        let left = Self.face(centreX: 110), right = Self.face(centreX: 290)
        let onlyLeft = try FaceCompositor().regionMask(two, faces: [left])
        #expect(try Self.mean(onlyLeft, 90, 200, 40, 40) > 0.95)
        #expect(try Self.mean(onlyLeft, 270, 200, 40, 40) < 0.05, "the neighbour's face")
    }

    @Test func strokesStayInsideTheRegion() throws {
        let photo = try Photo.load(path: TestAssets.graceHopper)
        let face = StyledFace(box: FaceBox(x: 175, y: 132, width: 182, height: 205), style: try .named("pencil"))
        let compositor = FaceCompositor()
        let outside = try compositor.regionMask(photo.rgb, faces: [face]).relational("equal", constant: [0])
        for id in FilterRegistry.standard.ids where id != "mask" {
            let styled = StyledFace(box: face.box, style: try .named(id), landmarks: face.landmarks)
            let out = try compositor.render(photo.rgb, faces: [styled])
            let changed = try out.cast(.float).subtract(photo.rgb.cast(.float)).absolute().bandMean()
                .relational("more", constant: [0]).boolean("and", outside)
            #expect(try changed.maximum() == 0, "\(id) drew outside its region")
        }
    }
}
