// CPortrait's hatching: the whole engraver's drawing of a crop in one pass (`sk_hatching`), the
// steps HatchingFilter describes, in place of some fifty libvips operations.
#include "sk_portrait.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace {

using namespace sk;

/// A float cast to a byte as libvips casts it: clipped to 0...255, the fraction dropped.
inline float byteOf(float v) { return std::floor(std::min(255.0f, std::max(0.0f, v))); }

void hatching(const unsigned char *rgb, int width, int height, const sk_hatching_plan &plan, unsigned char *outRGB) {
    checkImage(rgb, width, height);
    if (plan.origin_x < 0 || plan.origin_y < 0) throw std::invalid_argument("hatching: the origin must not be negative");
    if (plan.layers < 0 || plan.layers > 3) throw std::invalid_argument("hatching: 0...3 layers");
    const cv::Point origin(plan.origin_x, plan.origin_y);
    const float spacing = plan.spacing, sparse = plan.sparse;
    // How far a small face's tone is lightened before it is hatched (its lines start in darker
    // tones, its skin nearer paper): half the way. Lightened all the way, a face of 30-60 px
    // came out as "a smooth grey mask", "airbrushed" (the tone match greys its paper); not at
    // all, as "heavy stripes" that hide its features. A blind A/B on the panel faces under 70
    // px preferred half to all 32 to 13, and no lightening lost to all 27 to 38
    // (docs/look-panel.md).
    const float lightened = 0.5f * sparse;

    cv::Mat grey, smoothBytes, smooth;
    blurred(greyOf(rgb, width, height), grey, plan.grey_sigma);
    // The tone the lines carry: smooth, with the features' contrast lifted against the cheeks.
    blurred(grey, smoothBytes, std::max(1.0f, 0.6f * spacing));
    smoothBytes.convertTo(smooth, CV_32F, 1.0 / 255);
    cv::Mat broad = broadBlur(smooth, plan.broad_sigma, origin);

    // The surface the lines lie on, in line spacings: domes over the heads and the photo's
    // broad relief.
    cv::Mat domes = headDomes(plan.faces, plan.face_count, width, height, origin);

    // Each set: the tone under which it starts, its angle from the first set.
    static const float starts[3] = {0.9f, 0.5f, 0.25f}, turns[3] = {0, 90, -45};
    float cosines[3], sines[3], begin[3];
    for (int k = 0; k < plan.layers; k++) {
        double radians = (plan.angle + turns[k] + 90) * CV_PI / 180;
        cosines[k] = float(std::cos(radians) / spacing);
        sines[k] = float(std::sin(radians) / spacing);
        // A small face's lines start in darker tones: its skin nearer paper.
        begin[k] = starts[k] * (1 - 0.3f * lightened);
    }
    cv::Mat drawing(height, width, CV_32F);
    const float lift = 1.5f + 0.3f * lightened, sink = 0.5f + 0.3f * lightened, shift = plan.lightness + 0.06f * lightened;
    const float most = 0.42f * spacing;
    for (int y = 0; y < height; y++) {
        const float *s = smooth.ptr<float>(y), *b = broad.ptr<float>(y), *d = domes.ptr<float>(y);
        float *out = drawing.ptr<float>(y);
        for (int x = 0; x < width; x++) {
            float tone = s[x] * lift + shift - b[x] * sink;
            float offset = (b[x] * 0.35f * plan.face_size + d[x] * plan.face_size) * (plan.bend / spacing);
            float paper = 255;
            for (int k = 0; k < plan.layers; k++) {
                // The phase (kept positive) modulo 1; the distance to the nearest line in pixels.
                float phase = cosines[k] * float(x + origin.x) + sines[k] * float(y + origin.y) + offset + 8192;
                float fraction = phase - std::floor(phase);
                float distance = -spacing * std::fabs(fraction - 0.5f) + 0.5f * spacing;
                // Half a line's width: nothing at the layer's starting tone, most of the spacing in black.
                float halfWidth = std::min(most, std::max(0.0f, tone * (-most / begin[k]) + most));
                // Antialiased over a pixel; a line thinner than a pixel fades in. In bytes
                // (255 = full ink), the layers multiplied as bytes.
                float fade = byteOf(halfWidth * 510);
                float edge = byteOf((halfWidth - distance) * 255 + 127.5f);
                float left = byteOf(edge * fade * (-1.0f / 255) + 255);
                paper = k == 0 ? left : byteOf(paper * left / 255);
            }
            float v = paper / 255;
            // Solid darks where the tone is deepest: the features a few lines could not draw.
            if (sparse > 0) v *= unitClamp(tone * (-1 / 0.2f) + 0.3f / 0.2f) * (-0.6f * sparse) + 1;
            out[x] = v;
        }
    }
    if (plan.outline > 0) {
        cv::Mat lines(height, width, CV_8U);
        flowLines(grey.data, width, height, plan.flow_sigma, plan.line_sigma, plan.flow_length, 0.985f, 60, lines.data);
        for (int y = 0; y < height; y++) {
            const unsigned char *l = lines.ptr<unsigned char>(y);
            float *out = drawing.ptr<float>(y);
            for (int x = 0; x < width; x++) out[x] *= l[x] / 255.0f * plan.outline + 1 - plan.outline;
        }
    }
    for (int y = 0; y < height; y++) {
        const float *v = drawing.ptr<float>(y);
        unsigned char *out = outRGB + size_t(y) * width * 3;
        for (int x = 0; x < width; x++) {
            unsigned char g = (unsigned char)(255 * unitClamp(v[x]));
            out[3 * x] = out[3 * x + 1] = out[3 * x + 2] = g;
        }
    }
}

} // namespace

extern "C" int sk_hatching(const unsigned char *rgb, int width, int height, const sk_hatching_plan *plan,
                           unsigned char *out, char *error, int error_size) {
    return guarded(error, error_size, [&] {
        if (!plan) throw std::invalid_argument("hatching: no plan");
        hatching(rgb, width, height, *plan, out);
    });
}
