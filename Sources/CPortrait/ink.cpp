// CPortrait's ink: the whole pen-and-ink drawing of a crop in one pass (`sk_ink`), the steps
// InkFilter describes, in place of some forty libvips operations of half a millisecond each.
#include "sk_portrait.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace {

using namespace sk;

/// One layer of pen strokes as a line screen: strokes at `angle` radians, `spacing` pixels
/// apart, as wide as `coverage` asks, drifting sideways and swelling with the hand's noise
/// (`sway` scales and signs it, so layers do not wobble in step). Ink coverage 0...1.
struct PenLayer {
    float dx, dy;       // across-stroke position per pixel, in spacings
    float ox, oy;       // the crop's corner on the canvas, in spacings
    float spacing, sway;

    PenLayer(float angle, float spacing, float sway, cv::Point origin)
        : dx(-std::sin(angle) / spacing), dy(std::cos(angle) / spacing), ox(dx * origin.x), oy(dy * origin.y),
          spacing(spacing), sway(sway) {}

    float ink(int x, int y, float coverage, float hand) const {
        float position = dx * x + ox + dy * y + oy + 0.1f * sway * hand + 1000.25f;
        float distance = std::fabs(position - std::nearbyint(position)) * spacing;
        float width = coverage * (1 - 0.12f * sway * hand) * spacing;
        // The part of a pixel a stroke `width` wide covers, at most `width`: about width / 2 + 0.5
        // - distance, its edge steepened a little (less grey, and no jagged steps to see).
        float edge = 0.8f * width + 0.5f - 1.6f * distance;
        return unitClamp(std::min(edge, width));
    }
};

void ink(const unsigned char *rgb, int width, int height, const sk_ink_plan &plan, unsigned char *outRGB) {
    checkImage(rgb, width, height);
    if (plan.origin_x < 0 || plan.origin_y < 0) throw std::invalid_argument("ink: the origin must not be negative");
    const cv::Point origin(plan.origin_x, plan.origin_y);

    cv::Mat lit = greyOf(rgb, width, height), grey, tone;
    blurred(lit, grey, plan.grey_sigma);
    blurred(lit, tone, plan.tone_sigma);

    // Lines: the flow DoG, then a steep ramp to pure ink.
    cv::Mat lines(height, width, CV_8U);
    flowLines(grey.data, width, height, plan.flow_sigma, plan.line_sigma, plan.flow_length, plan.rho, plan.phi, lines.data);

    // The hand: smooth noise over about two spacings, for the strokes' drift and swell.
    cv::Mat hand = smoothNoise(NoiseWindow{plan.noise, plan.noise_side, plan.noise_x, plan.noise_y}, origin,
                               2 * std::max(2.25f, plan.spacing), width, height);
    const PenLayer single(45 * float(CV_PI) / 180, plan.spacing, 1, origin);
    const PenLayer cross(-40 * float(CV_PI) / 180, 1.1f * plan.spacing, -0.8f, origin);

    // How much ink each tone asks for, per level: none above the threshold, all at black.
    float coverageOf[256];
    for (int level = 0; level < 256; level++)
        coverageOf[level] = std::pow(unitClamp(level * (-plan.wash / plan.threshold / 255) + plan.wash), 1.15f);

    const float small = plan.small, lineEdge = plan.line_edge;
    for (int y = 0; y < height; y++) {
        const unsigned char *l = lines.ptr<unsigned char>(y), *t = tone.ptr<unsigned char>(y);
        const float *h = hand.ptr<float>(y);
        unsigned char *out = outRGB + size_t(y) * width * 3;
        for (int x = 0; x < width; x++) {
            float lineInk = unitClamp(l[x] * (-1.0f / 40) + lineEdge / 40 + 0.5f);
            float coverage = coverageOf[t[x]];
            // Single hatching up to half the paper, the crossing strokes beyond, solid ink at the last.
            float hatched = coverage * (1 - 0.75f * small);
            float one = single.ink(x, y, std::min(0.7f, unitClamp(1.25f * hatched)), h[x]);
            float two = cross.ink(x, y, unitClamp(1.6f * hatched - 0.62f), h[x]);
            float solid = unitClamp(12 * coverage - 12 * (0.72f - 0.12f * small));
            float ink = std::max(std::max(lineInk, one), std::max(two, solid));
            unsigned char g = (unsigned char)(255 * (1 - ink));
            out[3 * x] = out[3 * x + 1] = out[3 * x + 2] = g;
        }
    }
}

} // namespace

extern "C" int sk_ink(const unsigned char *rgb, int width, int height, const sk_ink_plan *plan, unsigned char *out,
                      char *error, int error_size) {
    return guarded(error, error_size, [&] {
        if (!plan) throw std::invalid_argument("ink: no plan");
        ink(rgb, width, height, *plan, out);
    });
}
