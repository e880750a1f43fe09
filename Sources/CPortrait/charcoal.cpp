// CPortrait's charcoal: the whole drawing of a crop in one pass (`sk_charcoal`), the steps
// CharcoalFilter describes, in place of some thirty libvips operations of half a millisecond each.
#include "sk_portrait.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace {

using namespace sk;

void charcoal(const unsigned char *rgb, int width, int height, const sk_charcoal_plan &plan, unsigned char *outRGB) {
    checkImage(rgb, width, height);
    if (plan.origin_x < 0 || plan.origin_y < 0) throw std::invalid_argument("charcoal: the origin must not be negative");
    const cv::Point origin(plan.origin_x, plan.origin_y);
    auto window = [&](int which) {
        return NoiseWindow{plan.noise, plan.noise_side, plan.noise_x[which], plan.noise_y[which]};
    };

    cv::Mat grey;
    blurred(greyOf(rgb, width, height), grey, plan.grey_sigma);

    // Strokes: flow lines as wide as the stick, softened, made bold by `contrast` (0 = paper).
    cv::Mat lines(height, width, CV_8U), strokes;
    flowLines(grey.data, width, height, plan.flow_sigma, plan.stroke_sigma, plan.flow_length, 0.985f, 50, lines.data);
    lines.convertTo(strokes, CV_32F);
    blurred(strokes, strokes, plan.stroke_soften);

    // Tone: a broad smudge of the grey with some of its detail, mottled.
    cv::Mat broad, near;
    blurred(grey, broad, plan.broad_sigma);
    blurred(grey, near, plan.near_sigma);
    cv::Mat mottle = smoothNoise(window(0), origin, plan.mottle_size, width, height);

    // The paper's tooth: coarse grain a little over a photo pixel, with some finer.
    cv::Mat coarse = paperGrain(window(1), origin, plan.coarse_grain, width, height);
    cv::Mat fine = paperGrain(window(2), origin, plan.fine_grain, width, height);

    // The small forms' darks and lights (irises, nostrils, lips, teeth).
    const SpotDetail detail(grey, plan.detail);

    const float contrast = plan.contrast, grain = plan.grain, shading = plan.shading / 0.8f;
    for (int y = 0; y < height; y++) {
        const unsigned char *spot = detail.spots(y), *around = detail.surroundings(y);
        const float *s = strokes.ptr<float>(y), *m = mottle.ptr<float>(y);
        const float *c = coarse.ptr<float>(y), *f = fine.ptr<float>(y);
        const unsigned char *b = broad.ptr<unsigned char>(y), *n = near.ptr<unsigned char>(y);
        unsigned char *out = outRGB + size_t(y) * width * 3;
        for (int x = 0; x < width; x++) {
            float stroke = unitClamp(s[x] * (-contrast / 120) + contrast * 248 / 120);
            float smudge = b[x] * (0.55f / 255) + n[x] * (0.45f / 255);
            float darkness = 1 - smudge + 0.03f * m[x];
            float tone = unitClamp(unitClamp(darkness * contrast + 0.5f - 0.45f * contrast) * shading);
            // The darkness of both: 1 - (1 - strokes)(1 - tone).
            float drawn = 1 - (1 - stroke) * (1 - tone);
            // Charcoal takes on the tooth's peaks: mid tones mottled by it, its deepest pits
            // (below -1.4 deviations) light specks, fewer and greyer in the blackest areas.
            float tooth = 0.85f * c[x] + 0.5f * f[x];
            float middle = drawn * (1 - drawn);
            float pits = unitClamp(-1.5f * tooth - 1.5f * 1.4f);
            float specks = pits * (drawn * (-0.7f * grain) + 0.9f * grain);
            float textured = (drawn + middle * tooth * (0.5f * grain)) * (1 - specks);
            float light = unitClamp(1 - textured);
            if (spot) light = std::min(1.0f, light * detail.factor(spot[x], around[x]));
            unsigned char g = (unsigned char)(255 * light);
            out[3 * x] = out[3 * x + 1] = out[3 * x + 2] = g;
        }
    }
}

} // namespace

extern "C" int sk_charcoal(const unsigned char *rgb, int width, int height, const sk_charcoal_plan *plan,
                           unsigned char *out, char *error, int error_size) {
    return guarded(error, error_size, [&] {
        if (!plan) throw std::invalid_argument("charcoal: no plan");
        charcoal(rgb, width, height, *plan, out);
    });
}
