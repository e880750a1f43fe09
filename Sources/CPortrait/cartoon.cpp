// CPortrait's cartoon: the whole drawing of a crop in one pass (`sk_cartoon`), the steps
// CartoonFilter describes, in place of some twenty libvips operations around the bilateral.
#include "sk_portrait.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace {

using namespace sk;

void cartoon(const unsigned char *rgb, int width, int height, const sk_cartoon_plan &plan, unsigned char *outRGB) {
    checkImage(rgb, width, height);
    if (plan.levels < 1) throw std::invalid_argument("cartoon: at least one level");
    const cv::Mat crop(height, width, CV_8UC3, const_cast<unsigned char *>(rgb));

    // Edge-preserving flattening on a copy reduced by `scale` (never enlarged), then enlarged.
    cv::Mat flat;
    if (plan.scale < 1) {
        cv::Size small(std::max(1, int(std::lround(width * plan.scale))), std::max(1, int(std::lround(height * plan.scale))));
        cv::Mat reduced;
        cv::resize(crop, reduced, small, 0, 0, cv::INTER_AREA);
        cv::resize(bilateral(reduced, plan.reach, 28, 3), flat, crop.size(), 0, 0, cv::INTER_LINEAR);
    } else {
        flat = bilateral(crop, plan.reach, 28, 3);
    }

    // Posterised lightness, hue and chroma smooth and boosted (CIELAB, D65).
    cv::Mat unit, lab;
    flat.convertTo(unit, CV_32FC3, 1.0 / 255);
    cv::cvtColor(unit, lab, cv::COLOR_RGB2Lab);
    cv::Mat channels[3];
    cv::split(lab, channels);
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
    cv::merge(channels, 3, lab);
    cv::cvtColor(lab, unit, cv::COLOR_Lab2RGB);
    cv::Mat colours;
    unit.convertTo(colours, CV_8UC3, 255);

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
