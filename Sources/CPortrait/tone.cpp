// CPortrait's tone match: a drawing's lightness set, area by area, to a photo's (see
// sk_tone_match and Filters' ToneMatch), in one pass over the pixels.
#include "sk_portrait.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

using namespace sk;

/// The relative luminance Y (0...1) of a CIELAB lightness.
double luminanceOf(double lightness) {
    double fy = (std::min(100.0, std::max(0.0, lightness)) + 16) / 116;
    return fy > 6.0 / 29 ? fy * fy * fy : 108.0 / 841 * (fy - 4.0 / 29);
}


/// An sRGB pixel given as floats 0...255 (an average of pixels, so not a level) in linear
/// light: each value interpolated between the table's.
void linearOf(const float *rgb, double c[3]) {
    const auto &linear = linearLevels();
    for (int k = 0; k < 3; k++) {
        float v = std::min(255.0f, std::max(0.0f, rgb[k]));
        int i = std::min(254, int(v));
        double f = v - i;
        c[k] = linear[i] * (1 - f) + linear[i + 1] * f;
    }
}

/// The relative luminance Y of a pixel in linear light.
double relativeLuminance(const double c[3]) { return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; }

/// CIELAB (D65) lightness, and chroma, of an sRGB pixel given as floats 0...255.
void lab(const float *rgb, double &l, double &chroma) {
    double c[3], a, b;
    linearOf(rgb, c);
    cielab(c, l, a, b);
    chroma = std::sqrt(a * a + b * b);
}

/// The CIELAB lightness alone of an sRGB pixel given as floats 0...255 (`lab`'s, computed as
/// it does, without the chroma's two other cube roots).
double lightness(const float *rgb) {
    double c[3];
    linearOf(rgb, c);
    return 116 * labF(relativeLuminance(c)) - 16;
}

/// `in` times the gain of its pixel, rounded and clamped to 0...255 as `cv::saturate_cast` does
/// (to nearest, ties to even), for one row of 8-bit RGB; plain, or sixteen pixels at a time
/// with AVX-512 (the same products and rounding, so the same bytes).
void scaledRow(const unsigned char *in, const float *gain, int width, unsigned char *out, int from) {
    for (int x = from; x < width; x++)
        for (int k = 0; k < 3; k++) out[3 * x + k] = cv::saturate_cast<unsigned char>(in[3 * x + k] * gain[x]);
}

#if defined(__x86_64__)
__attribute__((target("avx512f"))) int scaledRowSixteen(const unsigned char *in, const float *gain, int width, unsigned char *out) {
    // The pixel each of 48 bytes (sixteen pixels) belongs to, a third of the 48 at a time.
    const __m512i pixelOf[3] = {_mm512_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5),
                                _mm512_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10),
                                _mm512_setr_epi32(10, 11, 11, 11, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15)};
    const __m512i zero = _mm512_setzero_si512(), top = _mm512_set1_epi32(255);
    int x = 0;
    for (; x + 16 <= width; x += 16) {
        const __m512 gains = _mm512_loadu_ps(gain + x);
        for (int part = 0; part < 3; part++) {
            const size_t at = size_t(3 * x + 16 * part);
            __m512 v = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + at))));
            __m512i r = _mm512_cvtps_epi32(_mm512_mul_ps(v, _mm512_permutexvar_ps(pixelOf[part], gains)));
            r = _mm512_min_epi32(_mm512_max_epi32(r, zero), top);
            _mm_storeu_si128(reinterpret_cast<__m128i *>(out + at), _mm512_cvtepi32_epi8(r));
        }
    }
    return x;
}
#endif

/// A separable gaussian blur of a small plane, its edges extended.
cv::Mat smoothed(const cv::Mat &plane, double sigma) {
    int radius = std::max(1, int(std::ceil(3 * sigma)));
    cv::Mat out;
    cv::GaussianBlur(plane, out, cv::Size(2 * radius + 1, 2 * radius + 1), sigma, sigma, cv::BORDER_REPLICATE);
    return out;
}

/// A local mean lightness (CIELAB L) with its lights lifted towards white where the drawing
/// is paper (`paper`, 0...1): L + lift (100 - L) s paper, s rising smoothly from 0 at L 45 to 1
/// at L 85. Shadows, dark rooms and the darker half of a face are left as they are.
double lifted(double lightness, double paper, double lift) {
    double x = std::min(1.0, std::max(0.0, (lightness - 45) / 40));
    double s = x * x * (3 - 2 * x) * paper;
    return lightness + lift * (100 - lightness) * s;
}

/// `in` times the gain of its pixel, its contrast about its local mean `level` raised where the
/// gain darkens a grey drawing (`paper`): v g (v / m)^e, e = `shadowContrast` (1 - g) paper
/// (`sk_tone_match`), for one row of 8-bit RGB.
void contrastRow(const unsigned char *in, const float *gain, const float *level, const float *paper,
                 float shadowContrast, int width, unsigned char *out) {
    static const std::vector<float> logOf = [] {
        std::vector<float> table(256);
        for (int v = 0; v < 256; v++) table[v] = std::log(float(std::max(v, 1)));
        return table;
    }();
    for (int x = 0; x < width; x++) {
        const float e = shadowContrast * std::max(0.0f, 1 - gain[x]) * std::min(1.0f, std::max(0.0f, paper[x]));
        const float logLevel = e > 0 ? std::log(std::max(1.0f, level[x])) : 0;
        // A grey pixel (every band alike, as a grey drawing's are) is raised once.
        const bool grey = in[3 * x] == in[3 * x + 1] && in[3 * x] == in[3 * x + 2];
        for (int k = 0; k < (grey ? 1 : 3); k++) {
            const unsigned char v = in[3 * x + k];
            const float kept = e > 0 && v > 0 ? std::exp(e * (logOf[v] - logLevel)) : 1.0f;
            out[3 * x + k] = cv::saturate_cast<unsigned char>(v * gain[x] * kept);
        }
        if (grey) out[3 * x + 1] = out[3 * x + 2] = out[3 * x];
    }
}

/// How far inside its region each pixel of a drawing's reduced copy `small` lies (how much of
/// an exposure it is matched at, how much of its own tone it keeps): 1 inside `region` (8-bit,
/// the drawing's size) from `ramp` pixels in from its edge, 0 at the edge (where its matte is
/// half), smooth between: twice the region blurred over half the ramp, less one. NULL or no
/// ramp: 1 everywhere.
cv::Mat insideShares(const unsigned char *region, int width, int height, float ramp, cv::Size small, double factor) {
    if (!region || !(ramp > 0)) return cv::Mat(small, CV_32F, cv::Scalar(1));
    cv::Mat full(height, width, CV_8U, const_cast<unsigned char *>(region)), reduced;
    reducedByArea(full, reduced, small);
    reduced.convertTo(reduced, CV_32F, 1.0 / 255);
    cv::Mat shares = smoothed(reduced, std::max(0.5, ramp / 2 / factor)) * 2 - 1;
    return cv::min(cv::max(shares, 0.0), 1.0);
}

void toneMatch(const unsigned char *drawingBytes, const unsigned char *photoBytes, int width, int height,
               float reach, float paperLift, float paperChroma, float shadowContrast, float exposure,
               const unsigned char *region, float regionRamp, float ownTone, unsigned char *outBytes) {
    checkImage(drawingBytes, width, height);
    checkImage(photoBytes, width, height);
    double sigma = std::max(1.0f, reach);
    // The local means are smooth: taken on copies reduced until the window is ~3 pixels wide.
    double factor = std::max(1.0, sigma / 3);
    cv::Size small(std::max(1, int(std::lround(width / factor))), std::max(1, int(std::lround(height / factor))));
    cv::Mat drawing(height, width, CV_8UC3, const_cast<unsigned char *>(drawingBytes));
    cv::Mat photo(height, width, CV_8UC3, const_cast<unsigned char *>(photoBytes));
    cv::Mat drawnSmall, photoSmall;
    reducedByArea(drawing, drawnSmall, small);
    reducedByArea(photo, photoSmall, small);
    drawnSmall.convertTo(drawnSmall, CV_32FC3);
    photoSmall.convertTo(photoSmall, CV_32FC3);

    // Per reduced pixel: the photo's lightness, the drawing's level (the scale the gain
    // multiplies) and the drawing's chroma (how far it is from a grey drawing on paper).
    cv::Mat photoL(small, CV_64F), drawnLevel(small, CV_64F), drawnChroma(small, CV_64F);
    for (int y = 0; y < small.height; y++)
        for (int x = 0; x < small.width; x++) {
            double l, chroma;
            photoL.at<double>(y, x) = lightness(photoSmall.ptr<float>(y) + 3 * x);
            lab(drawnSmall.ptr<float>(y) + 3 * x, l, chroma);
            drawnLevel.at<double>(y, x) = 255 * linearToSrgb(luminanceOf(l));
            drawnChroma.at<double>(y, x) = chroma;
        }
    double s = sigma / factor;
    photoL = smoothed(photoL, s);
    // How far inside its region each reduced pixel lies: for the exposure and the own tone.
    const cv::Mat shares = exposure != 1 || ownTone > 0 ? insideShares(region, width, height, regionRamp, small, factor) : cv::Mat();
    // The photo as a longer exposure would have taken it (its local means' luminance times
    // `exposure`, up to white), inside the region; at its edge as it is, where the drawing
    // meets the photo.
    if (exposure != 1) {
        for (int y = 0; y < small.height; y++)
            for (int x = 0; x < small.width; x++) {
                double &l = photoL.at<double>(y, x);
                const double e = 1 + (exposure - 1) * shares.at<float>(y, x);
                l = std::min(100.0, 116 * labF(luminanceOf(l) * e) - 16);
            }
    }
    drawnLevel = smoothed(drawnLevel, s);
    drawnChroma = smoothed(drawnChroma, s);
    // The gain, its lights not lifted from a chroma of `paperChroma` (a cartoon's bands, a
    // relief's material, coloured pencil); with it, how grey the drawing is there (1: a grey
    // drawing on paper) and its local level, for the contrast a darkened grey drawing keeps.
    cv::Mat gain(small, CV_32F), paperOf(small, CV_32F), level(small, CV_32F);
    for (int y = 0; y < small.height; y++)
        for (int x = 0; x < small.width; x++) {
            double paper = std::min(1.0, std::max(0.0, 1 - drawnChroma.at<double>(y, x) / paperChroma));
            double target = 255 * linearToSrgb(luminanceOf(lifted(photoL.at<double>(y, x), paper, paperLift)));
            gain.at<float>(y, x) = float(target / (drawnLevel.at<double>(y, x) + 1));
            paperOf.at<float>(y, x) = float(paper);
            level.at<float>(y, x) = float(drawnLevel.at<double>(y, x));
        }
    // A drawing that keeps its own lightness inside its region (a carving's one material, lit
    // as carved): its gain goes from the match at the region's edge to `ownTone` of the way to
    // none (1) at the ramp's end, so it still meets the photo at the photo's lightness.
    if (ownTone > 0) {
        for (int y = 0; y < small.height; y++)
            for (int x = 0; x < small.width; x++) {
                float &g = gain.at<float>(y, x);
                const float kept = ownTone * shares.at<float>(y, x);
                g = g * (1 - kept) + kept;
            }
    }
    cv::Mat enlarged;
    cv::resize(gain, enlarged, cv::Size(width, height), 0, 0, cv::INTER_CUBIC);
    if (shadowContrast > 0) {
        cv::Mat paperEnlarged, levelEnlarged;
        cv::resize(paperOf, paperEnlarged, cv::Size(width, height), 0, 0, cv::INTER_CUBIC);
        cv::resize(level, levelEnlarged, cv::Size(width, height), 0, 0, cv::INTER_CUBIC);
        for (int y = 0; y < height; y++)
            contrastRow(drawingBytes + size_t(y) * width * 3, enlarged.ptr<float>(y), levelEnlarged.ptr<float>(y),
                        paperEnlarged.ptr<float>(y), shadowContrast, width, outBytes + size_t(y) * width * 3);
        return;
    }
#if defined(__x86_64__)
    const bool wide = wideVectorInstructions();
#endif
    for (int y = 0; y < height; y++) {
        const unsigned char *in = drawingBytes + size_t(y) * width * 3;
        unsigned char *out = outBytes + size_t(y) * width * 3;
        const float *g = enlarged.ptr<float>(y);
        int done = 0;
#if defined(__x86_64__)
        if (wide) done = scaledRowSixteen(in, g, width, out);
#endif
        scaledRow(in, g, width, out, done);
    }
}

} // namespace

extern "C" int sk_tone_match(const unsigned char *drawing, const unsigned char *photo, int width, int height,
                             float reach, float paper_lift, float paper_chroma, float shadow_contrast, float exposure,
                             const unsigned char *region, float region_ramp, float own_tone, unsigned char *out, char *error,
                             int error_size) {
    return guarded(error, error_size, [&] {
        if (!(shadow_contrast >= 0)) throw std::invalid_argument("tone match: shadow contrast must not be negative");
        if (!(exposure > 0) || !std::isfinite(exposure)) throw std::invalid_argument("tone match: the exposure must be positive");
        if (!(region_ramp >= 0) || !std::isfinite(region_ramp)) throw std::invalid_argument("tone match: the region's ramp must not be negative");
        if (!(own_tone >= 0 && own_tone <= 1)) throw std::invalid_argument("tone match: the own tone kept must be 0...1");
        toneMatch(drawing, photo, width, height, reach, paper_lift, paper_chroma, shadow_contrast, exposure, region, region_ramp,
                  own_tone, out);
    });
}
