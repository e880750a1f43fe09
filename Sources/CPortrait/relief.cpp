// CPortrait's relief: the face carved and lit in one pass (`sk_relief`), the steps ReliefFilter
// describes, in place of some fifty libvips operations.
#include "sk_portrait.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace {

using namespace sk;

/// The carving's height in pixels: luminance detail (its broad changes halved) and a dome over
/// each head.
cv::Mat heightField(const unsigned char *rgb, int width, int height, const sk_relief_plan &plan, cv::Point origin) {
    cv::Mat lightness, smooth;
    greyOf(rgb, width, height).convertTo(lightness, CV_32F, 1.0 / 255);
    blurred(lightness, smooth, plan.smoothing);
    cv::Mat broad = broadBlur(smooth, plan.broad_sigma, origin);
    cv::Mat domes = headDomes(plan.faces, plan.face_count, width, height, origin);
    const float detail = plan.depth * plan.face_size * 0.06f, dome = plan.depth * plan.face_size * 0.12f;
    cv::Mat surface(height, width, CV_32F);
    for (int y = 0; y < height; y++) {
        const float *s = smooth.ptr<float>(y), *b = broad.ptr<float>(y), *d = domes.ptr<float>(y);
        float *h = surface.ptr<float>(y);
        for (int x = 0; x < width; x++) h[x] = (s[x] - 0.5f * b[x]) * detail + d[x] * dome;
    }
    return surface;
}

/// 1 where the light reaches the surface, falling to 0 where the height field stands between it
/// and the light: marched towards the light in eight steps over a tenth of the face.
cv::Mat castShadow(const cv::Mat &h, float azimuth, float elevation, float face) {
    const float step = std::max(1.0f, 0.0125f * face), slope = std::tan(elevation);
    const float dx = std::cos(azimuth), dy = -std::sin(azimuth);
    cv::Mat highest(h.size(), CV_32F, cv::Scalar(-1e30f));
    bool any = false;
    for (int k = 1; k <= 8; k++) {
        const int ox = int(std::round(dx * k * step)), oy = int(std::round(dy * k * step));
        if (ox == 0 && oy == 0) continue;
        any = true;
        const float rise = std::sqrt(float(ox * ox + oy * oy)) * slope;
        for (int y = 0; y < h.rows; y++) {
            // The height at p + (ox, oy), the borders copied outwards.
            const float *ahead = h.ptr<float>(std::min(h.rows - 1, std::max(0, y + oy)));
            const float *here = h.ptr<float>(y);
            float *top = highest.ptr<float>(y);
            for (int x = 0; x < h.cols; x++) {
                float above = ahead[std::min(h.cols - 1, std::max(0, x + ox))] - here[x] - rise;
                top[x] = std::max(top[x], above);
            }
        }
    }
    cv::Mat shadow(h.size(), CV_32F, cv::Scalar(1));
    if (!any) return shadow;
    const float soft = -1 / std::max(0.5f, 0.025f * face);
    for (int y = 0; y < h.rows; y++) {
        const float *top = highest.ptr<float>(y);
        float *s = shadow.ptr<float>(y);
        for (int x = 0; x < h.cols; x++) s[x] = unitClamp(top[x] * soft + 1);
    }
    return shadow;
}

/// Ambient occlusion: 1 on crests and flats, darker where the surface lies below its
/// neighbourhood's mean height, at a fine and a broad scale.
cv::Mat occlusion(const cv::Mat &h, float face, cv::Point origin) {
    cv::Mat fine;
    blurred(h, fine, std::max(1.0f, 0.03f * face));
    cv::Mat broad = broadBlur(h, std::max(2.0f, 0.1f * face), origin);
    cv::Mat out(h.size(), CV_32F);
    for (int y = 0; y < h.rows; y++) {
        const float *f = fine.ptr<float>(y), *b = broad.ptr<float>(y), *here = h.ptr<float>(y);
        float *o = out.ptr<float>(y);
        for (int x = 0; x < h.cols; x++) {
            float depth = std::max(0.0f, (f[x] - here[x]) + 0.5f * (b[x] - here[x]));
            o[x] = std::min(1.0f, std::max(0.3f, depth * (-1 / (0.05f * face)) + 1));
        }
    }
    return out;
}

void relief(const unsigned char *rgb, int width, int height, const sk_relief_plan &plan, unsigned char *outRGB) {
    checkImage(rgb, width, height);
    if (plan.origin_x < 0 || plan.origin_y < 0) throw std::invalid_argument("relief: the origin must not be negative");
    const cv::Point origin(plan.origin_x, plan.origin_y);
    const float face = plan.face_size;
    cv::Mat h = heightField(rgb, width, height, plan, origin);
    // Central differences, the border mirrored so the crop's edges do not read as cliffs.
    cv::Mat padded;
    cv::copyMakeBorder(h, padded, 1, 1, 1, 1, cv::BORDER_REFLECT);

    const float azimuth = plan.azimuth, elevation = plan.elevation;
    const float lx = std::cos(elevation) * std::cos(azimuth), ly = -std::cos(elevation) * std::sin(azimuth), lz = std::sin(elevation);
    // Blinn-Phong: the half vector between the light and the viewer (straight above).
    const float hl = std::sqrt(lx * lx + ly * ly + (lz + 1) * (lz + 1));
    const float hx = lx / hl, hy = ly / hl, hz = (lz + 1) / hl;
    cv::Mat shade = plan.harmonics ? occlusion(h, face, origin) : castShadow(h, azimuth, elevation, face);

    const float tint = plan.tint / 255;
    for (int y = 0; y < height; y++) {
        const float *above = padded.ptr<float>(y), *row = padded.ptr<float>(y + 1), *below = padded.ptr<float>(y + 2);
        const float *s = shade.ptr<float>(y);
        const unsigned char *p = rgb + size_t(y) * width * 3;
        unsigned char *out = outRGB + size_t(y) * width * 3;
        for (int x = 0; x < width; x++) {
            // n = (-dh/dx, -dh/dy, 1) / length; image y points down, so "up" is -y.
            float gx = 0.5f * (row[x + 2] - row[x]), gy = 0.5f * (below[x + 1] - above[x + 1]);
            float nz = 1 / std::sqrt(gx * gx + gy * gy + 1), nx = -gx * nz, ny = -gy * nz;
            float cosine = nx * lx + ny * ly + nz * lz;
            float body, shine;
            if (plan.harmonics) {
                // Order-2 irradiance of a unit directional light, 1/4 + cos/2 + 5/32 (3 cos^2 - 1),
                // and of a uniform sky facing the viewer, (1 + n_z)/2; hollows darkened, never black.
                float sun = cosine * cosine * (15.0f / 32) + cosine * 0.5f + 0.25f - 5.0f / 32;
                float irradiance = (0.5f * sun + 0.5f * (0.5f * nz + 0.5f)) * 1.05f;
                body = std::min(1.1f, std::max(0.0f, irradiance * s[x])) * 0.9f + 0.08f;
                shine = 0;
            } else {
                float direct = std::max(0.0f, cosine) * s[x];
                float nh = unitClamp(nx * hx + ny * hy + nz * hz);
                // A polished surface: a dark ambient, the key light, a near-white highlight.
                body = direct * 0.95f + 0.18f;
                shine = std::pow(nh, 32.0f) * s[x] * 0.9f;
            }
            for (int k = 0; k < 3; k++) {
                float surface = p[3 * x + k] * tint + plan.material[k];
                float lit = surface * body + (surface * 0.35f + 0.65f) * shine;
                out[3 * x + k] = (unsigned char)(255 * unitClamp(lit));
            }
        }
    }
}

} // namespace

extern "C" int sk_relief(const unsigned char *rgb, int width, int height, const sk_relief_plan *plan,
                         unsigned char *out, char *error, int error_size) {
    return guarded(error, error_size, [&] {
        if (!plan) throw std::invalid_argument("relief: no plan");
        relief(rgb, width, height, *plan, out);
    });
}
