// CPortrait's compositing: a matte carried to where its face is now (sk_matte_place) and a
// drawing laid over its picture through a mask (sk_blend_through), over packed bytes. Both ran
// in Swift, pixel by pixel; here the compiler vectorises their inner loops, with the same
// arithmetic (no fused multiply-adds: the package builds CPortrait with -ffp-contract=off).
#include "sk_portrait.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace {

using namespace sk;

void placeMatte(const unsigned char *matte, int width, int height, double scaleX, double scaleY, double cornerX,
                double cornerY, int outWidth, int outHeight, const double *beyond, unsigned char *out) {
    std::fill(out, out + size_t(outWidth) * outHeight, 0);
    if (width <= 0 || height <= 0 || !(scaleX > 0) || !(scaleY > 0)) return;
    // The canvas pixels whose centres fall inside the scaled matte, and its footprint's
    // margins past the sides it goes on beyond (their samples clamp to its edge).
    const double pastLeft = beyond ? std::max(0.0, beyond[0]) : 0, pastTop = beyond ? std::max(0.0, beyond[1]) : 0;
    const double pastRight = beyond ? std::max(0.0, beyond[2]) : 0, pastBottom = beyond ? std::max(0.0, beyond[3]) : 0;
    const int x0 = std::max(0, int(std::ceil(cornerX - pastLeft * scaleX - 0.5)));
    const int x1 = std::min(outWidth, int(std::ceil(cornerX + (width + pastRight) * scaleX - 0.5)));
    const int y0 = std::max(0, int(std::ceil(cornerY - pastTop * scaleY - 0.5)));
    const int y1 = std::min(outHeight, int(std::ceil(cornerY + (height + pastBottom) * scaleY - 0.5)));
    if (x1 <= x0 || y1 <= y0) return;
    // Each canvas column's two matte columns and the weight of the second.
    const int columns = x1 - x0;
    std::vector<int> left(columns), right(columns);
    std::vector<float> along(columns);
    for (int x = x0; x < x1; x++) {
        const double u = std::min(std::max((x + 0.5 - cornerX) / scaleX - 0.5, 0.0), double(width - 1));
        const int i = int(u);
        left[x - x0] = i;
        right[x - x0] = std::min(i + 1, width - 1);
        along[x - x0] = float(u - i);
    }
    // A matte row sampled at the canvas's columns serves every canvas row between its
    // neighbours: each is sampled once and kept while the rows that need it are drawn.
    std::vector<float> rows(2 * size_t(columns));
    int held[2] = {-1, -1};
    auto sampled = [&](int r, int keep) -> const float * {
        if (held[0] == r) return rows.data();
        if (held[1] == r) return rows.data() + columns;
        const int half = held[0] == keep ? 1 : 0;
        float *at = rows.data() + size_t(half) * columns;
        const unsigned char *row = matte + size_t(r) * width;
        for (int k = 0; k < columns; k++) {
            const float fx = along[k];
            at[k] = float(row[left[k]]) * (1 - fx) + float(row[right[k]]) * fx;
        }
        held[half] = r;
        return at;
    };
    for (int y = y0; y < y1; y++) {
        const double v = std::min(std::max((y + 0.5 - cornerY) / scaleY - 0.5, 0.0), double(height - 1));
        const int j = int(v);
        const float fy = float(v - j);
        const float *upper = sampled(j, -1);
        const float *lower = sampled(std::min(j + 1, height - 1), j);
        unsigned char *o = out + size_t(y) * outWidth + x0;
        for (int k = 0; k < columns; k++) o[k] = (unsigned char)(int)(upper[k] * (1 - fy) + lower[k] * fy + 0.5f);
    }
}

template <int Bands>
void blendThrough(const unsigned char *top, const unsigned char *mask, int width, int height, unsigned char *base,
                  int baseWidth, int x, int y) {
    // In 16 bits a lane, every byte of a row alike (the mask's value spread over its pixel's
    // bands), so the loop runs eight or more bytes at a time. The mix a t + (255 - a) b + 128
    // is at most 65,153, and (v + 1 + (v >> 8)) >> 8 is v / 255 for every v up to 65,534.
    const size_t n = size_t(width) * Bands;
    std::vector<uint16_t> alpha(n);
    for (int row = 0; row < height; row++) {
        const unsigned char *m = mask + size_t(row) * width, *t = top + size_t(row) * n;
        unsigned char *b = base + (size_t(y + row) * baseWidth + x) * Bands;
        for (int p = 0; p < width; p++)
            for (int c = 0; c < Bands; c++) alpha[size_t(p) * Bands + c] = m[p];
        for (size_t i = 0; i < n; i++) {
            const uint16_t a = alpha[i];
            const uint16_t v = uint16_t(uint16_t(a * t[i]) + uint16_t((255 - a) * b[i]) + 128);
            b[i] = (unsigned char)(uint16_t(v + 1 + (v >> 8)) >> 8);
        }
    }
}

void blendThrough(const unsigned char *top, const unsigned char *mask, int width, int height, int bands,
                  unsigned char *base, int baseWidth, int x, int y) {
    switch (bands) {
    case 1: return blendThrough<1>(top, mask, width, height, base, baseWidth, x, y);
    case 2: return blendThrough<2>(top, mask, width, height, base, baseWidth, x, y);
    case 3: return blendThrough<3>(top, mask, width, height, base, baseWidth, x, y);
    case 4: return blendThrough<4>(top, mask, width, height, base, baseWidth, x, y);
    default: throw std::invalid_argument("1 to 4 bands");
    }
}

/// CIELAB a and b of an 8-bit sRGB pixel, and its grey as the drawings take it (luminance in
/// linear light, sRGB-encoded, 0...255: `greyOf`).
void chromaOf(const unsigned char *rgb, double &a, double &b, double *grey = nullptr) {
    const std::vector<double> &linear = linearLevels();
    const double c[3] = {linear[rgb[0]], linear[rgb[1]], linear[rgb[2]]};
    double l;
    cielab(c, l, a, b);
    if (grey) *grey = 255 * linearToSrgb(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]);
}

/// The picture's colour under a grey drawing's soft edge faded to its grey where it has the
/// head's hue (sk_grey_fringe).
void greyFringe(const unsigned char *top, const unsigned char *mask, int width, int height, unsigned char *base,
                int baseWidth, int x, int y) {
    if (!top || !mask || !base || width <= 0 || height <= 0 || x < 0 || y < 0 || baseWidth < x + width)
        throw std::invalid_argument("no layer, or a layer outside the picture");
    // The head's hue: the mean chroma of the picture where the mask is whole, from some four
    // thousand pixels of it at most (every third pixel of every third row, or sparser).
    const int step = std::max(3, int(std::sqrt(double(width) * height / 4096)));
    double sumA = 0, sumB = 0;
    long count = 0;
    for (int row = 0; row < height; row += step)
        for (int col = 0; col < width; col += step) {
            if (mask[size_t(row) * width + col] != 255) continue;
            double a, b;
            chromaOf(base + (size_t(y + row) * baseWidth + x + col) * 3, a, b);
            sumA += a;
            sumB += b;
            count++;
        }
    if (count == 0) return;
    const double headA = sumA / count, headB = sumB / count, headChroma = std::hypot(headA, headB);
    if (headChroma < 2) return; // a grey picture: nothing to fade
    const double near = std::cos(20 * M_PI / 180), far = std::cos(35 * M_PI / 180);
    for (int row = 0; row < height; row++)
        for (int col = 0; col < width; col++) {
            const int m = mask[size_t(row) * width + col];
            const unsigned char *t = top + (size_t(row) * width + col) * 3;
            if (m == 0 || m == 255 || t[0] != t[1] || t[0] != t[2]) continue;
            unsigned char *p = base + (size_t(y + row) * baseWidth + x + col) * 3;
            double a, b, grey;
            chromaOf(p, a, b, &grey);
            const double chroma = std::hypot(a, b);
            if (chroma < 1) continue;
            const double cosine = (a * headA + b * headB) / (chroma * headChroma);
            if (cosine <= far) continue;
            const double like = cosine >= near ? 1 : (cosine - far) / (near - far);
            const double share = std::min(1.0, m / (0.35 * 255)) * like;
            for (int c = 0; c < 3; c++) p[c] = (unsigned char)std::lround(p[c] + share * (grey - p[c]));
        }
}

} // namespace

extern "C" int sk_grey_fringe(const unsigned char *top, const unsigned char *mask, int width, int height, unsigned char *base,
                              int base_width, int x, int y, char *error, int error_size) {
    return sk::guarded(error, error_size, [&] { greyFringe(top, mask, width, height, base, base_width, x, y); });
}

extern "C" int sk_matte_place(const unsigned char *matte, int width, int height, double scale_x, double scale_y,
                              double corner_x, double corner_y, int out_width, int out_height, const double *beyond,
                              unsigned char *out, char *error, int error_size) {
    return sk::guarded(error, error_size, [&] {
        placeMatte(matte, width, height, scale_x, scale_y, corner_x, corner_y, out_width, out_height, beyond, out);
    });
}

extern "C" int sk_blend_through(const unsigned char *top, const unsigned char *mask, int width, int height, int bands,
                                unsigned char *base, int base_width, int x, int y, char *error, int error_size) {
    return sk::guarded(error, error_size, [&] { blendThrough(top, mask, width, height, bands, base, base_width, x, y); });
}

extern "C" int sk_lay_carried(const unsigned char *drawing, const unsigned char *photo, const unsigned char *mask, int width,
                              int height, int bands, unsigned char *picture, int picture_width, int picture_height, int x, int y,
                              char *error, int error_size) {
    return sk::guarded(error, error_size, [&] {
        if (!drawing || !photo || !mask || !picture || width <= 0 || height <= 0 || bands < 1 || bands > 4 || picture_width <= 0 ||
            picture_height <= 0)
            throw std::invalid_argument("no layer or picture");
        const int x0 = std::max(0, x), y0 = std::max(0, y);
        const int x1 = std::min(picture_width, x + width), y1 = std::min(picture_height, y + height);
        for (int py = y0; py < y1; py++) {
            const size_t row = size_t(py - y) * size_t(width);
            unsigned char *out = picture + (size_t(py) * size_t(picture_width)) * size_t(bands);
            for (int px = x0; px < x1; px++) {
                const size_t at = row + size_t(px - x);
                const int a = mask[at];
                if (a == 0) continue;
                const unsigned char *d = drawing + at * size_t(bands), *was = photo + at * size_t(bands);
                unsigned char *o = out + size_t(px) * size_t(bands);
                for (int b = 0; b < bands; b++) {
                    int v = d[b];
                    if (a < 255) {
                        const int change = (255 - a) * (int(o[b]) - int(was[b]));
                        v += change >= 0 ? (change + 127) / 255 : -((-change + 127) / 255);
                    }
                    o[b] = (unsigned char)std::min(255, std::max(0, v));
                }
            }
        }
    });
}
