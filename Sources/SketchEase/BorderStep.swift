import Foundation

/// How strongly a region's border stands out: the measure of whether a styled face sits in its
/// photo or looks pasted on.
///
/// Along the region's border, the colour difference (CIE76 ΔE) between the mean colour of a band
/// just inside and a band just outside it, each averaged locally (a gaussian window as wide as
/// the band), then averaged over the border. The bands are 12 % of the region's size wide (its
/// equivalent diameter). Dividing the output's step by the original's gives the ratio the tests
/// pin: 1 means the styled region steps off its surroundings no more than the photo did.
public enum BorderStep {
    /// Band width as a fraction of the region's equivalent diameter.
    public static let bandFraction = 0.12

    /// Mask level above which a pixel counts as inside: the half-way line of a soft edge.
    public static let threshold = 127.0

    /// The mean border step of `image` around `region` (one band, 8-bit, same size, as the
    /// compositor's `regionMask`). Nil when the region has no border inside the image.
    public static func step(of image: VipsImage, region: VipsImage) throws -> Double? {
        let inside = try region.relational("more", constant: [threshold])
        let area = try inside.average() / 255 * Double(region.width * region.height)
        guard area >= 16 else { return nil }
        let band = max(2, bandFraction * 2 * (area / .pi).squareRoot())
        // Distance of every pixel outside to the region, and of every pixel inside to the outside.
        let outsideDistance = try inside.distanceToNearest()
        let insideDistance = try inside.inverted().distanceToNearest()
        let innerBand = try insideDistance.relational("more", constant: [0])
            .boolean("and", insideDistance.relational("lesseq", constant: [band])).linear(1.0 / 255, 0)
        let outerBand = try outsideDistance.relational("more", constant: [0])
            .boolean("and", outsideDistance.relational("lesseq", constant: [band])).linear(1.0 / 255, 0)
        let border = try insideDistance.relational("more", constant: [0])
            .boolean("and", insideDistance.relational("less", constant: [1.5])).linear(1.0 / 255, 0)

        let lab = try image.colourspace(.lab)
        func localMean(_ weight: VipsImage) throws -> (mean: VipsImage, weight: VipsImage) {
            let sum = try lab.multiply(weight).gaussianBlur(sigma: band / 2, minAmplitude: 0.05)
            let total = try weight.gaussianBlur(sigma: band / 2, minAmplitude: 0.05)
            return (try sum.divide(total.linear(1, 1e-6)), total)
        }
        let (innerMean, innerWeight) = try localMean(innerBand)
        let (outerMean, outerWeight) = try localMean(outerBand)
        let difference = try innerMean.subtract(outerMean)
        let deltaE = try difference.multiply(difference).bandMean().linear(3, 0).math2("pow", constant: [0.5])
        // Border pixels that have both bands near them (not where the region meets the image edge).
        let counted = try border.multiply(innerWeight.relational("more", constant: [0.05]).linear(1.0 / 255, 0))
            .multiply(outerWeight.relational("more", constant: [0.05]).linear(1.0 / 255, 0))
        let pixels = try counted.average()
        guard pixels > 0 else { return nil }
        return try deltaE.multiply(counted).average() / pixels
    }

    /// The output's border step divided by the original's, around the same region.
    public static func ratio(original: VipsImage, output: VipsImage, region: VipsImage) throws -> Double? {
        guard let before = try step(of: original, region: region), before > 0,
              let after = try step(of: output, region: region) else { return nil }
        return after / before
    }
}
