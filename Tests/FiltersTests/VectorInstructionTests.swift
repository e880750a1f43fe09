import CPortrait
import Testing
import TestSupport
import Vips
@testable import Filters

/// Where the processor has AVX2, the flow lines (the contour layer of pencil, ink, charcoal,
/// hatching and cartoon) walk their streamlines eight at a time (sixteen with AVX-512), and
/// pencil's strokes choose their directions eight pixels at a time and the texture tiles hash
/// eight pixels at a time (finding where strokes start from a mask); with AVX-512, reductions by
/// area run sixteen lanes at a time, the tone match scales sixteen pixels at a time and the
/// texture tiles hash sixteen pixels at a time: the
/// same bytes as the plain loops (and OpenCV's own reduction), on a real face, at the sizes the
/// styles draw at.
@Suite(.serialized) struct VectorInstructionTests {
    /// `draw` run with the vector instructions off, then with each wider kind the processor
    /// has (AVX2, then AVX-512 as well; left at the widest, the default): the plain bytes and
    /// the others.
    static func everyWay(_ draw: () throws -> [UInt8]) throws -> (plain: [UInt8], vector: [[UInt8]]) {
        _ = sk_use_vector_instructions(0)
        defer { _ = sk_use_vector_instructions(2) }
        let plain = try draw()
        var vector: [[UInt8]] = []
        for level in Int32(1)...2 where sk_use_vector_instructions(level) == level {
            vector.append(try draw())
        }
        print("vector paths: \(["AVX2", "AVX-512"].prefix(vector.count).joined(separator: ", ")) (\(vector.count) of 2 on this processor)")
        return (plain, vector)
    }

    @Test(arguments: [(1.0, 0.5, 1.5), (3.0, 0.5, 3.0), (2.0, 1.2, 2.5)])
    func vectorLinesAreTheSameBytes(flowSigma: Double, lineSigma: Double, flowLength: Double) throws {
        let grey = try FilterBench.faceCrop().colourspace(.bw).extractBands(0).cast(.uchar)
        let (plain, vector) = try Self.everyWay {
            try PortraitOperations.flowLines(grey, flowSigma: flowSigma, lineSigma: lineSigma, flowLength: flowLength,
                                             rho: 0.985, sharpness: 60).pixels()
        }
        #expect(plain.count == grey.width * grey.height)
        #expect(plain.contains { $0 < 128 }, "some ink")
        for other in vector { #expect(PixelStats.differingBytes(plain, other) == 0, "pixels differ") }
    }

    @Test(arguments: [(6.0, 1.0), (9.0, 1.1), (14.0, 1.6)])
    func vectorStrokesAreTheSameBytes(length: Double, width: Double) throws {
        let grey = try FilterBench.faceCrop().colourspace(.bw).extractBands(0).cast(.uchar)
        let face = FaceRegion(x: 60, y: 70, width: 160, height: 190)
        let (plain, vector) = try Self.everyWay {
            try PortraitOperations.pencilStrokes(grey, length: length, width: width, gain: 1.3, faces: [face]).pixels()
        }
        #expect(plain.contains { $0 < 128 }, "some strokes")
        for other in vector { #expect(PixelStats.differingBytes(plain, other) == 0, "pixels differ") }
    }

    @Test(arguments: [200.0, 60.0])
    func aPencilFaceIsTheSameBytes(faceSize: Double) throws {
        let crop = try FilterBench.faceCrop()
        let (plain, vector) = try Self.everyWay { try FilterBench.render("pencil", crop, faceSize: faceSize).pixels() }
        for other in vector { #expect(PixelStats.differingBytes(plain, other) == 0, "bytes differ") }
    }

    /// A reduction by area of every kind the styles make (RGB and grey; a scale that is not a
    /// whole number, and one that is, which OpenCV's faster path takes either way).
    @Test(arguments: [0.9, 0.71, 0.5, 0.37, 0.125, 0.083])
    func reductionsByAreaAreTheSameBytes(scale: Double) throws {
        let crop = try FilterBench.faceCrop()
        let grey = try crop.colourspace(.bw).extractBands(0).cast(.uchar)
        for image in [crop, grey] {
            let width = max(1, Int((Double(image.width) * scale).rounded())), height = max(1, Int((Double(image.height) * scale).rounded()))
            let (plain, vector) = try Self.everyWay { try PortraitOperations.resampled(image, width: width, height: height).pixels() }
            #expect(plain.count == width * height * image.bands)
            for other in vector { #expect(PixelStats.differingBytes(plain, other) == 0, "\(image.bands) bands at \(scale): bytes differ") }
        }
    }

    /// The tone match of a pencil drawing to its photo, at a small face's reach and a large one's.
    @Test(arguments: [4.0, 24.0, 60.0])
    func aToneMatchIsTheSameBytes(reach: Double) throws {
        let crop = try FilterBench.faceCrop()
        let drawing = try FilterBench.render("pencil", crop)
        let (plain, vector) = try Self.everyWay { try ToneMatch.apply(drawing, like: crop, reach: reach).pixels() }
        #expect(plain.count == crop.width * crop.height * 3)
        for other in vector { #expect(PixelStats.differingBytes(plain, other) == 0, "bytes differ") }
    }

    /// A texture tile at a short, a middle and a long stroke (a size that is not a power of two,
    /// so rows end partway through a vector).
    @Test(arguments: [(6.0, 1.5), (20.0, 1.0), (60.0, 3.0)])
    func aTextureTileIsTheSameBytes(length: Double, width: Double) throws {
        let (plain, vector) = try Self.everyWay {
            try PortraitOperations.pencilTexture(width: 203, height: 157, length: length, strokeWidth: width, angle: -55, seed: 7).pixels()
        }
        #expect(plain.count == 203 * 157)
        #expect(plain.contains { $0 < 128 }, "some strokes")
        for other in vector { #expect(PixelStats.differingBytes(plain, other) == 0, "bytes differ") }
    }
}
