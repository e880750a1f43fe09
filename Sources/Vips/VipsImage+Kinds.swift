extension VipsImage {
    /// How libvips reads an image's bands (its `VipsInterpretation`), named by libvips' own
    /// nicknames, as libvips' C++ binding names them by its C enum.
    public enum Interpretation: String, CaseIterable, Sendable {
        case multiband, bw = "b-w", histogram, xyz, lab, cmyk, labq, rgb, cmc, lch, labs, srgb, yxy, fourier,
             rgb16, grey16, matrix, scrgb, hsv
    }

    /// The type of one sample of one band (libvips' `VipsBandFormat`), by libvips' nicknames.
    public enum BandFormat: String, CaseIterable, Sendable {
        case uchar, char, ushort, short, uint, int, float, complex, double, dpcomplex
    }
}
