// CPortrait's cartoon: the whole drawing of a crop in one pass (`sk_cartoon`), the steps
// CartoonFilter describes, in place of some twenty libvips operations around the bilateral.
#include "sk_portrait.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

namespace {

using namespace sk;

// MARK: CIELAB (D65), as libvips converts: computed here, since OpenCV's conversion builds its
// tables on first use (~0.1 s, once per process: a whole cartoon face's time again on a photo).

constexpr float whiteX = 0.950456f, whiteZ = 1.088754f;
constexpr float labEdge = 6.0f / 29.0f;

/// f(t) of CIELAB over 0...1.25 (the XYZ a display's colours reach), from a table with linear
/// interpolation (4096 steps: within 0.01 of L*).
float labF(float t) {
    static const std::vector<float> table = [] {
        std::vector<float> f(4098);
        for (int i = 0; i < 4098; i++) {
            double v = 1.25 * i / 4096.0;
            f[i] = float(v > labEdge * labEdge * labEdge ? std::cbrt(v) : v / (3 * labEdge * labEdge) + 4.0 / 29.0);
        }
        return f;
    }();
    float at = std::min(4096.0f, std::max(0.0f, t * (4096 / 1.25f)));
    int i = int(at);
    return table[i] + (table[i + 1] - table[i]) * (at - float(i));
}

float labFInverse(float t) { return t > labEdge ? t * t * t : 3 * labEdge * labEdge * (t - 4.0f / 29.0f); }

/// An 8-bit sRGB image as CIELAB channels (L*, a*, b*), float.
void toLab(const cv::Mat &rgb, cv::Mat channels[3]) {
    const std::vector<double> &linear = linearLevels();
    for (int k = 0; k < 3; k++) channels[k].create(rgb.size(), CV_32F);
    for (int y = 0; y < rgb.rows; y++) {
        const unsigned char *p = rgb.ptr<unsigned char>(y);
        float *l = channels[0].ptr<float>(y), *a = channels[1].ptr<float>(y), *b = channels[2].ptr<float>(y);
        for (int x = 0; x < rgb.cols; x++, p += 3) {
            float r = float(linear[p[0]]), g = float(linear[p[1]]), u = float(linear[p[2]]);
            float fx = labF((0.4124564f * r + 0.3575761f * g + 0.1804375f * u) / whiteX);
            float fy = labF(0.2126729f * r + 0.7151522f * g + 0.0721750f * u);
            float fz = labF((0.0193339f * r + 0.1191920f * g + 0.9503041f * u) / whiteZ);
            l[x] = 116 * fy - 16;
            a[x] = 500 * (fx - fy);
            b[x] = 200 * (fy - fz);
        }
    }
}

/// CIELAB channels back to 8-bit sRGB (colours outside sRGB clipped).
cv::Mat fromLab(const cv::Mat channels[3]) {
    static const std::vector<unsigned char> encoded = [] {
        std::vector<unsigned char> table(4097);
        for (int i = 0; i <= 4096; i++) table[i] = cv::saturate_cast<unsigned char>(255 * linearToSrgb(i / 4096.0));
        return table;
    }();
    auto byte = [&](float v) { return encoded[int(unitClamp(v) * 4096 + 0.5f)]; };
    cv::Mat rgb(channels[0].size(), CV_8UC3);
    for (int y = 0; y < rgb.rows; y++) {
        const float *l = channels[0].ptr<float>(y), *a = channels[1].ptr<float>(y), *b = channels[2].ptr<float>(y);
        unsigned char *p = rgb.ptr<unsigned char>(y);
        for (int x = 0; x < rgb.cols; x++, p += 3) {
            float fy = (l[x] + 16) / 116, fx = fy + a[x] / 500, fz = fy - b[x] / 200;
            float X = whiteX * labFInverse(fx), Y = labFInverse(fy), Z = whiteZ * labFInverse(fz);
            p[0] = byte(3.2404542f * X - 1.5371385f * Y - 0.4985314f * Z);
            p[1] = byte(-0.9692660f * X + 1.8760108f * Y + 0.0415560f * Z);
            p[2] = byte(0.0556434f * X - 0.2040259f * Y + 1.0572252f * Z);
        }
    }
    return rgb;
}

void cartoon(const unsigned char *rgb, int width, int height, const sk_cartoon_plan &plan, unsigned char *outRGB) {
    checkImage(rgb, width, height);
    if (plan.levels < 1) throw std::invalid_argument("cartoon: at least one level");
    const cv::Mat crop(height, width, CV_8UC3, const_cast<unsigned char *>(rgb));

    // Edge-preserving flattening on a copy reduced by `scale` (never enlarged), then enlarged.
    cv::Mat flat;
    if (plan.scale < 1) {
        cv::Size small(std::max(1, int(std::lround(width * plan.scale))), std::max(1, int(std::lround(height * plan.scale))));
        cv::Mat reduced;
        sk::reducedByArea(crop, reduced, small);
        cv::resize(bilateral(reduced, plan.reach, 28, 3), flat, crop.size(), 0, 0, cv::INTER_LINEAR);
    } else {
        flat = bilateral(crop, plan.reach, 28, 3);
    }

    // Posterised lightness, hue and chroma smooth and boosted (CIELAB, D65).
    cv::Mat channels[3];
    toLab(flat, channels);
    // Smoothed before banding, so bands follow the face's forms, not its blotches.
    blurred(channels[0], channels[0], plan.lightness_sigma);
    blurred(channels[1], channels[1], plan.chroma_sigma);
    blurred(channels[2], channels[2], plan.chroma_sigma);
    const float step = 100.0f / plan.levels;
    for (int y = 0; y < height; y++) {
        float *l = channels[0].ptr<float>(y), *a = channels[1].ptr<float>(y), *b = channels[2].ptr<float>(y);
        for (int x = 0; x < width; x++) {
            // Bands span L 8...96: no blown-out white patches, and black is left to the outlines.
            l[x] = std::nearbyint(l[x] / step) * step * 0.88f + 8;
            a[x] *= plan.saturation;
            b[x] *= plan.saturation;
        }
    }
    cv::Mat colours = fromLab(channels);

    // Outlines: coherent lines along the flow of the flattened picture.
    if (plan.outline > 0) {
        cv::Mat grey = greyOf(flat.data, width, height), lines(height, width, CV_8U);
        flowLines(grey.data, width, height, plan.flow_sigma, plan.line_sigma, plan.flow_length, plan.rho, 200, lines.data);
        for (int y = 0; y < height; y++) {
            unsigned char *c = colours.ptr<unsigned char>(y);
            const unsigned char *l = lines.ptr<unsigned char>(y);
            for (int x = 0; x < width; x++)
                for (int k = 0; k < 3; k++) c[3 * x + k] = (unsigned char)(c[3 * x + k] * (l[x] / 255.0f));
        }
    }
    std::memcpy(outRGB, colours.data, size_t(width) * height * 3);
}

} // namespace

extern "C" int sk_cartoon(const unsigned char *rgb, int width, int height, const sk_cartoon_plan *plan,
                          unsigned char *out, char *error, int error_size) {
    return guarded(error, error_size, [&] {
        if (!plan) throw std::invalid_argument("cartoon: no plan");
        cartoon(rgb, width, height, *plan, out);
    });
}
