// Internal to CPortrait: what its files share. Not part of the module's interface.
#ifndef SK_PORTRAIT_COMMON_HPP
#define SK_PORTRAIT_COMMON_HPP

#include "sk_portrait.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "sk_portrait.h"

namespace sk {

inline void setError(char *error, int size, const char *message) {
    if (!error || size <= 0) return;
    std::strncpy(error, message, size - 1);
    error[size - 1] = '\0';
}

template <typename Body>
inline int guarded(char *error, int size, Body body) {
    try {
        body();
        return 0;
    } catch (const cv::Exception &e) {
        setError(error, size, e.what());
    } catch (const std::exception &e) {
        setError(error, size, e.what());
    } catch (...) {
        setError(error, size, "unknown C++ exception");
    }
    return -1;
}

/// What CPortrait says of an image it does not take or make.
inline const std::string imageLimit = "image must be 1..." + std::to_string(SK_LARGEST_SIDE) + " pixels on each side";

/// An image's size within what CPortrait takes or makes (`SK_LARGEST_SIDE`).
inline void checkSize(int width, int height) {
    if (width <= 0 || height <= 0 || width > SK_LARGEST_SIDE || height > SK_LARGEST_SIDE) throw std::invalid_argument(imageLimit);
}

inline void checkImage(const void *pixels, int width, int height) {
    if (!pixels) throw std::invalid_argument(imageLimit);
    checkSize(width, height);
}

/// A uniform number in 0...1 from a pixel and a seed (a 32-bit integer hash).
inline float hashUnit(uint32_t x, uint32_t y, uint32_t seed) {
    uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u ^ seed * 0xcb1ab31fu;
    h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;
    return float(h) / 4294967295.0f;
}

/// `v` clamped to 0...1.
inline float unitClamp(float v) { return std::min(1.0f, std::max(0.0f, v)); }

/// 0 up to `edge0`, 1 from `edge1`, smooth (3t^2 - 2t^3) between.
inline float smoothstep(float edge0, float edge1, float x) {
    const float t = unitClamp((x - edge0) / (edge1 - edge0));
    return t * t * (3 - 2 * t);
}

/// sRGB's encoding: an encoded value (0...1) to linear light, and linear light back.
inline double srgbToLinear(double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); }
inline double linearToSrgb(double c) { return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055; }

/// The 256 levels of 8-bit sRGB in linear light (0...1), computed once.
inline const std::vector<double> &linearLevels() {
    static const std::vector<double> table = [] {
        std::vector<double> t(256);
        for (int i = 0; i < 256; i++) t[i] = srgbToLinear(i / 255.0);
        return t;
    }();
    return table;
}

/// CIELAB's f: a cube root, linear near black.
inline double labF(double t) { return t > 216.0 / 24389 ? std::cbrt(t) : t * 841.0 / 108 + 4.0 / 29; }

/// CIELAB (D65: L 0...100, a, b) of a colour in linear light (sRGB primaries, 0...1).
inline void cielab(const double c[3], double &l, double &a, double &b) {
    const double fx = labF((0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047);
    const double fy = labF(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]);
    const double fz = labF((0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883);
    l = 116 * fy - 16;
    a = 500 * (fx - fy);
    b = 200 * (fy - fz);
}

/// Whether the AVX2 paths may run: the processor has AVX2 and `sk_use_vector_instructions`
/// has not turned them off. They draw the same bytes as the plain loops beside them.
bool vectorInstructions();

/// Whether the AVX-512 paths may run too: the processor has AVX-512 (foundation) and
/// `sk_use_vector_instructions` allows them. They draw the same bytes as well.
bool wideVectorInstructions();

/// The gaussian blur libvips' `gaussblur` (minimum amplitude 0.05) gives, with the border
/// reflected: the same reach, so layers match what the styles' libvips steps compute.
void blurred(const cv::Mat &in, cv::Mat &out, double sigma);

/// `in` reduced to `size` by area, as `cv::resize(in, out, size, 0, 0, cv::INTER_AREA)` gives
/// it to the byte; 8-bit grey and RGB reductions by a scale that is not a whole number (OpenCV
/// sums those one tap after another, at its adds' latency) sixteen lanes at a time with AVX-512.
void reducedByArea(const cv::Mat &in, cv::Mat &out, cv::Size size);

/// A drawing's small forms (`sk_detail`) over a softened grey image: the factor each pixel
/// of the drawing is multiplied by, from how much darker or lighter its spot is than its
/// surroundings (looked up by the difference in levels).
class SpotDetail {
  public:
    SpotDetail(const cv::Mat &grey, const sk_detail &plan);
    /// The rows of the spots and their surroundings (8-bit); null when the plan asks for none.
    const unsigned char *spots(int y) const { return on ? fine.ptr<unsigned char>(y) : nullptr; }
    const unsigned char *surroundings(int y) const { return on ? around.ptr<unsigned char>(y) : nullptr; }
    float factor(unsigned char spot, unsigned char surrounding) const { return byDifference[surrounding - spot + 255]; }
    /// The row of how much of the darks each pixel takes (255: all of them), near a face's
    /// features and `away` from them; null when it is all of them everywhere.
    const unsigned char *shares(int y) const { return on && !share.empty() ? share.ptr<unsigned char>(y) : nullptr; }
    /// `factor` with `taken` (0...255) of a dark spot's darkening; a light spot's lightening whole.
    float factor(unsigned char spot, unsigned char surrounding, unsigned char taken) const {
        const float whole = byDifference[surrounding - spot + 255];
        return whole >= 1 ? whole : 1 + (whole - 1) * (taken * (1.0f / 255));
    }

  private:
    bool on;
    cv::Mat fine, around, share;
    float byDifference[511];
};

/// How much of a drawing's small forms' darks each pixel takes (8-bit, 255: all): all of them
/// about the eyes and brows, the nose and the mouth of each of `faces` (`features`: five
/// landmarks a face, as `sk_detail` has them), fading to `away` of them elsewhere.
cv::Mat featureShares(const float *features, int faces, float away, int width, int height);

/// The grey of an RGB image as libvips' "b-w" gives it: luminance in linear light, sRGB-encoded.
cv::Mat greyOf(const unsigned char *rgb, int width, int height);

/// The shared noise tile (8-bit, 128 + 30 x N(0, 1), `side` square) and a face's point in it.
struct NoiseWindow {
    const unsigned char *bytes;
    int side;
    int x, y;
};

/// Paper grain at unit deviation (float, width x height): the face's window of the noise tile,
/// moved by `origin` (where the crop's corner lies on the canvas), softened by `grainSize`.
cv::Mat paperGrain(const NoiseWindow &noise, cv::Point origin, float grainSize, int width, int height);

/// Smooth noise at unit deviation, blobs about `grainSize` pixels across: a coarse grid of the
/// tile laid from the canvas's corner, softened and enlarged, so a part of a picture gets what
/// the whole has there.
cv::Mat smoothNoise(const NoiseWindow &noise, cv::Point origin, float grainSize, int width, int height);

/// A gaussian blur for large radii (float): above 6 pixels, the image shrunk by whole blocks
/// laid from the canvas's corner (`origin`, where its corner lies on it), blurred a few pixels
/// and enlarged, as the styles' `broadBlur` does it; a plain blur below.
cv::Mat broadBlur(const cv::Mat &in, double sigma, cv::Point origin);

/// The sum over `faces` of a gaussian dome of height 1 over each head (float, width x height),
/// highest a little above the box's centre, falling off over the head's width and height;
/// on a coarse grid laid from the canvas's corner, enlarged. Zero without faces.
cv::Mat headDomes(const sk_face_seed *faces, int count, int width, int height, cv::Point origin);

/// An edge-preserving smoothing of an 8-bit RGB image: `iterations` bilateral filters of
/// diameter about 3 sigma_space, colour sigma in 8-bit levels.
cv::Mat bilateral(const cv::Mat &rgb, float sigmaSpace, float sigmaColour, int iterations);

/// Flow-based DoG lines (Kang et al. 2007) of an 8-bit grey image: 255 paper, darker ink.
void flowLines(const unsigned char *greyBytes, int width, int height, float flowSigma, float sigmaC,
               float sigmaM, float rho, float phi, unsigned char *outBytes);

} // namespace sk

#endif
