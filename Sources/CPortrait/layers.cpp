// CPortrait's layers: what the one-pass drawings (`sk_pencil`, `sk_charcoal`) start from, each
// computed as the styles' libvips steps compute it, so a style keeps its look when ported.
#include "sk_portrait.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

namespace sk {

void blurred(const cv::Mat &in, cv::Mat &out, double sigma) {
    if (sigma < 0.3) {
        in.copyTo(out);
        return;
    }
    // libvips' reach for a minimum amplitude of 0.05.
    int radius = std::max(1, int(std::ceil(sigma * std::sqrt(2 * std::log(20.0)))) - 1);
    cv::GaussianBlur(in, out, cv::Size(2 * radius + 1, 2 * radius + 1), sigma, sigma, cv::BORDER_REFLECT);
}

SpotDetail::SpotDetail(const cv::Mat &grey, const sk_detail &plan) : on(plan.dark > 0 || plan.light > 0) {
    if (!on) return;
    blurred(grey, fine, plan.fine);
    blurred(grey, around, plan.sigma);
    for (int d = -255; d <= 255; d++) {
        float past = std::max(0.0f, std::abs(d) / 255.0f - plan.floor);
        byDifference[d + 255] = d > 0 ? std::max(0.0f, 1 - plan.dark * past) : 1 + plan.light * past;
    }
    if (plan.features && plan.feature_faces > 0 && plan.away < 1)
        share = featureShares(plan.features, plan.feature_faces, std::max(0.0f, plan.away), grey.cols, grey.rows);
}

cv::Mat featureShares(const float *features, int faces, float away, int width, int height) {
    cv::Mat near(height, width, CV_32F, cv::Scalar(0));
    // An ellipse about `centre`, `along` the eyes' line and `across` it, whole to its edge and
    // fading out by 1.6 times its size.
    auto zone = [&](cv::Point2f centre, cv::Point2f u, float along, float across) {
        const cv::Point2f n(-u.y, u.x);
        const float reach = 1.6f * std::max(along, across);
        const int x0 = std::max(0, int(std::floor(centre.x - reach))), x1 = std::min(width - 1, int(std::ceil(centre.x + reach)));
        const int y0 = std::max(0, int(std::floor(centre.y - reach))), y1 = std::min(height - 1, int(std::ceil(centre.y + reach)));
        for (int y = y0; y <= y1; y++) {
            float *row = near.ptr<float>(y);
            for (int x = x0; x <= x1; x++) {
                const cv::Point2f d(x - centre.x, y - centre.y);
                const float a = d.dot(u) / along, b = d.dot(n) / across;
                const float r = std::sqrt(a * a + b * b);
                row[x] = std::max(row[x], 1 - smoothstep(1.0f, 1.6f, r));
            }
        }
    };
    for (int f = 0; f < faces; f++) {
        const float *p = features + 10 * f;
        const cv::Point2f left(p[0], p[1]), right(p[2], p[3]), nose(p[4], p[5]), mouthLeft(p[6], p[7]), mouthRight(p[8], p[9]);
        const cv::Point2f line = right - left;
        const float eyes = std::max(1.0f, float(cv::norm(line)));
        const cv::Point2f u = line * (1 / eyes), down(-u.y, u.x);
        // The eyes with their brows above them, the nostrils about the nose's tip, the lips.
        zone(left - 0.1f * eyes * down, u, 0.38f * eyes, 0.45f * eyes);
        zone(right - 0.1f * eyes * down, u, 0.38f * eyes, 0.45f * eyes);
        zone(nose + 0.1f * eyes * down, u, 0.3f * eyes, 0.3f * eyes);
        zone((mouthLeft + mouthRight) * 0.5f, u, 0.5f * float(cv::norm(mouthRight - mouthLeft)) + 0.15f * eyes, 0.3f * eyes);
    }
    cv::Mat share;
    near.convertTo(share, CV_8U, 255 * (1 - away), 255 * away);
    return share;
}

cv::Mat greyOf(const unsigned char *rgb, int width, int height) {
    static const std::vector<float> linear = [] {
        std::vector<float> table(256);
        for (int i = 0; i < 256; i++) table[i] = float(linearLevels()[i]);
        return table;
    }();
    static const std::vector<unsigned char> level = [] {
        std::vector<unsigned char> table(4097);
        for (int i = 0; i <= 4096; i++) table[i] = cv::saturate_cast<unsigned char>(255 * linearToSrgb(i / 4096.0));
        return table;
    }();
    cv::Mat grey(height, width, CV_8U);
    for (int y = 0; y < height; y++) {
        const unsigned char *p = rgb + size_t(y) * width * 3;
        unsigned char *g = grey.ptr<unsigned char>(y);
        for (int x = 0; x < width; x++, p += 3) {
            float lum = 0.2126f * linear[p[0]] + 0.7152f * linear[p[1]] + 0.0722f * linear[p[2]];
            g[x] = level[std::min(4096, int(lum * 4096 + 0.5f))];
        }
    }
    return grey;
}

/// `value` wrapped into 0..<side, negative values too.
static inline int wrapped(long value, int side) { return int(((value % side) + side) % side); }

cv::Mat paperGrain(const NoiseWindow &noise, cv::Point origin, float grainSize, int width, int height) {
    if (!noise.bytes || noise.side <= 0) throw std::invalid_argument("paper grain: no noise tile");
    const int side = noise.side;
    int pad = grainSize >= 0.3f ? int(std::ceil(grainSize * 3)) + 1 : 0;
    cv::Mat window(height + 2 * pad, width + 2 * pad, CV_32F);
    // The face's window, moved with the crop's corner on the canvas (wrapping around the tile).
    const int noiseX = (noise.x % side + origin.x) % side, noiseY = (noise.y % side + origin.y) % side;
    // Each byte's value looked up, each row in runs up to the tile's edge and from its start
    // again after it (no division a pixel).
    static const std::vector<float> unit = [] {
        std::vector<float> table(256);
        for (int b = 0; b < 256; b++) table[b] = (b - 128.0f) / 30.0f;
        return table;
    }();
    for (int y = 0; y < window.rows; y++) {
        const unsigned char *row = noise.bytes + size_t((y + noiseY) % side) * side;
        float *n = window.ptr<float>(y);
        for (int x = 0, from = noiseX; x < window.cols; from = 0) {
            const int run = std::min(window.cols - x, side - from);
            for (int i = 0; i < run; i++) n[x + i] = unit[row[from + i]];
            x += run;
        }
    }
    if (pad == 0) return window;
    cv::Mat grain;
    blurred(window, grain, grainSize);
    // Blurring white noise by s leaves deviation 1 / (2 s sqrt(pi)).
    return grain(cv::Rect(pad, pad, width, height)) * (2 * grainSize * 1.7725f);
}

cv::Mat smoothNoise(const NoiseWindow &noise, cv::Point origin, float grainSize, int width, int height) {
    if (!noise.bytes || noise.side <= 0) throw std::invalid_argument("smooth noise: no noise tile");
    // A coarse grid laid from the canvas's corner, one point every `factor` pixels, each point
    // one sample of the tile; softened by 2 points (then back at unit deviation) and enlarged
    // bilinearly. Only the grid points near the crop are made.
    const double factor = std::max(1.0, grainSize / 2.0);
    const int margin = 8;
    const long gx0 = long(std::floor(origin.x / factor)) - margin, gy0 = long(std::floor(origin.y / factor)) - margin;
    const long gx1 = long(std::ceil((origin.x + width) / factor)) + margin, gy1 = long(std::ceil((origin.y + height) / factor)) + margin;
    cv::Mat grid(int(gy1 - gy0 + 1), int(gx1 - gx0 + 1), CV_32F);
    for (int y = 0; y < grid.rows; y++) {
        const unsigned char *row = noise.bytes + size_t(wrapped(gy0 + y + noise.y, noise.side)) * noise.side;
        float *g = grid.ptr<float>(y);
        for (int x = 0; x < grid.cols; x++) g[x] = (row[wrapped(gx0 + x + noise.x, noise.side)] - 128.0f) / 30.0f;
    }
    cv::Mat soft;
    blurred(grid, soft, 2);
    soft *= 4 * 1.7725f;
    cv::Mat out(height, width, CV_32F);
    std::vector<int> column(width);
    std::vector<float> columnShare(width);
    for (int x = 0; x < width; x++) {
        double gx = (origin.x + x + 0.5) / factor - 0.5 - double(gx0);
        column[x] = std::min(soft.cols - 2, std::max(0, int(std::floor(gx))));
        columnShare[x] = float(gx - column[x]);
    }
    for (int y = 0; y < height; y++) {
        double gy = (origin.y + y + 0.5) / factor - 0.5 - double(gy0);
        int row = std::min(soft.rows - 2, std::max(0, int(std::floor(gy))));
        float down = float(gy - row);
        const float *a = soft.ptr<float>(row), *b = soft.ptr<float>(row + 1);
        float *o = out.ptr<float>(y);
        for (int x = 0; x < width; x++) {
            int c = column[x];
            float s = columnShare[x];
            float top = a[c] + (a[c + 1] - a[c]) * s, bottom = b[c] + (b[c + 1] - b[c]) * s;
            o[x] = top + (bottom - top) * down;
        }
    }
    return out;
}

cv::Mat broadBlur(const cv::Mat &in, double sigma, cv::Point origin) {
    cv::Mat out;
    if (sigma <= 6) {
        blurred(in, out, sigma);
        return out;
    }
    // Shrink by whole blocks laid from the canvas's corner, blur a few pixels, enlarge.
    const int factor = std::max(2, int(std::lround(sigma / 3)));
    const int left = origin.x % factor, top = origin.y % factor;
    const int across = (left + in.cols + factor - 1) / factor, down = (top + in.rows + factor - 1) / factor;
    cv::Mat blocks, small, soft, large;
    cv::copyMakeBorder(in, blocks, top, down * factor - top - in.rows, left, across * factor - left - in.cols,
                       cv::BORDER_REPLICATE);
    sk::reducedByArea(blocks, small, cv::Size(across, down));
    blurred(small, soft, sigma / factor);
    cv::resize(soft, large, cv::Size(across * factor, down * factor), 0, 0, cv::INTER_CUBIC);
    return large(cv::Rect(left, top, in.cols, in.rows)).clone();
}

cv::Mat headDomes(const sk_face_seed *faces, int count, int width, int height, cv::Point origin) {
    cv::Mat out(height, width, CV_32F, cv::Scalar(0));
    if (!faces || count <= 0) return out;
    float smallest = std::min(faces[0].width, faces[0].height);
    for (int i = 1; i < count; i++) smallest = std::min(smallest, std::min(faces[i].width, faces[i].height));
    // Smooth over tens of pixels: a grid some four samples to a dome's deviation, laid from the
    // canvas's corner, enlarged.
    const int step = std::max(1, int(0.6f * smallest / 4));
    const int left = origin.x % step, top = origin.y % step;
    const int smallWidth = (left + width + step - 1) / step + 1, smallHeight = (top + height + step - 1) / step + 1;
    cv::Mat grid(smallHeight, smallWidth, CV_32F, cv::Scalar(0));
    for (int i = 0; i < count; i++) {
        const sk_face_seed &f = faces[i];
        const float cx = f.x + f.width / 2, cy = f.y + f.height * 0.4f, sx = 0.6f * f.width, sy = 0.8f * f.height;
        for (int y = 0; y < smallHeight; y++) {
            float dy = (float(y * step - top) - cy) / sy;
            float *g = grid.ptr<float>(y);
            for (int x = 0; x < smallWidth; x++) {
                float dx = (float(x * step - left) - cx) / sx;
                g[x] += std::exp(-0.5f * (dx * dx + dy * dy));
            }
        }
    }
    if (step == 1) return grid(cv::Rect(0, 0, width, height)).clone();
    cv::Mat large;
    cv::resize(grid, large, cv::Size(smallWidth * step, smallHeight * step), 0, 0, cv::INTER_CUBIC);
    return large(cv::Rect(left, top, width, height)).clone();
}

} // namespace sk

extern "C" int sk_paper_grain(const unsigned char *noise, int noise_side, int noise_x, int noise_y, int origin_x,
                              int origin_y, float grain_size, int width, int height, float *out, char *error,
                              int error_size) {
    return sk::guarded(error, error_size, [&] {
        sk::checkImage(out, width, height);
        if (origin_x < 0 || origin_y < 0) throw std::invalid_argument("paper grain: the origin must not be negative");
        sk::NoiseWindow window{noise, noise_side, noise_x, noise_y};
        cv::Point origin(origin_x, origin_y);
        cv::Mat grain = grain_size > 4 ? sk::smoothNoise(window, origin, grain_size, width, height)
                                       : sk::paperGrain(window, origin, grain_size, width, height);
        grain.copyTo(cv::Mat(height, width, CV_32F, out));
    });
}

extern "C" int sk_blur(const unsigned char *rgb, int width, int height, const sk_blur_plan *plan,
                       unsigned char *out, char *error, int error_size) {
    return sk::guarded(error, error_size, [&] {
        if (!plan) throw std::invalid_argument("blur: no plan");
        sk::checkImage(rgb, width, height);
        sk::checkImage(out, width, height);
        if (plan->origin_x < 0 || plan->origin_y < 0) throw std::invalid_argument("blur: the origin must not be negative");
        cv::Mat colour(height, width, CV_8UC3, const_cast<unsigned char *>(rgb)), values;
        colour.convertTo(values, CV_32FC3);
        cv::Mat soft = sk::broadBlur(values, plan->sigma, cv::Point(plan->origin_x, plan->origin_y));
        // To bytes as libvips casts: clipped, the fraction dropped.
        for (int y = 0; y < height; y++) {
            const float *v = soft.ptr<float>(y);
            unsigned char *o = out + size_t(y) * width * 3;
            for (int i = 0; i < 3 * width; i++) o[i] = (unsigned char)std::min(255.0f, std::max(0.0f, v[i]));
        }
    });
}
