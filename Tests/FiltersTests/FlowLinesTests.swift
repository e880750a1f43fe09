import CPortrait
import Testing
import TestSupport
import Vips
@testable import Filters

/// The flow lines (the contour layer of pencil, ink, charcoal, hatching and cartoon) walk their
/// streamlines eight at a time in AVX2 registers where the processor has them: the same bytes
/// as one lane at a time, on a real face, at the sizes the styles draw at.
@Suite(.serialized) struct FlowLinesTests {
    /// `draw` run with the vector instructions off, then on (left on, the default).
    static func bothWays(_ draw: () throws -> [UInt8]) throws -> (plain: [UInt8], vector: [UInt8]) {
        _ = sk_use_vector_instructions(0)
        defer { _ = sk_use_vector_instructions(1) }
        let plain = try draw()
        let used = sk_use_vector_instructions(1) == 1
        print("flow lines with AVX2: \(used ? "yes" : "no (this processor has none): one way only")")
        return (plain, try draw())
    }

    @Test(arguments: [(1.0, 0.5, 1.5), (3.0, 0.5, 3.0), (2.0, 1.2, 2.5)])
    func vectorLinesAreTheSameBytes(flowSigma: Double, lineSigma: Double, flowLength: Double) throws {
        let grey = try FilterBench.faceCrop().colourspace(.bw).extractBands(0).cast(.uchar)
        let (plain, vector) = try Self.bothWays {
            try PortraitOperations.flowLines(grey, flowSigma: flowSigma, lineSigma: lineSigma, flowLength: flowLength,
                                             rho: 0.985, sharpness: 60).pixels()
        }
        #expect(plain.count == grey.width * grey.height)
        #expect(plain.contains { $0 < 128 }, "some ink")
        #expect(plain == vector, "\(zip(plain, vector).filter { $0 != $1 }.count) pixels differ")
    }

    @Test(arguments: [200.0, 60.0])
    func aPencilFaceIsTheSameBytes(faceSize: Double) throws {
        let crop = try FilterBench.faceCrop()
        let (plain, vector) = try Self.bothWays { try FilterBench.render("pencil", crop, faceSize: faceSize).pixels() }
        #expect(plain == vector, "\(zip(plain, vector).filter { $0 != $1 }.count) bytes differ")
    }
}
