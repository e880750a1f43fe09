// CPortrait's pencil: Lu, Xu & Jia's stroke map (2012), the seeded graphite texture, and the
// whole pencil drawing of a crop in one pass (`sk_pencil`), so a face costs one call instead of
// some sixty libvips operations of half a millisecond each.
#include "sk_portrait.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <opencv2/imgproc.hpp>

namespace {

using namespace sk;

// MARK: Lines

/// A line kernel of `length` pixels through the centre at `angle` radians, a gaussian `sigma`
/// wide across, ends faded over a pixel; normalised to sum 1.
cv::Mat lineKernel(float length, float angle, float sigma) {
    int half = int(std::ceil(length / 2 + 2 * sigma + 1));
    cv::Mat k(2 * half + 1, 2 * half + 1, CV_32F);
    float c = std::cos(angle), s = std::sin(angle);
    for (int y = -half; y <= half; y++)
        for (int x = -half; x <= half; x++) {
            float along = x * c + y * s, across = -x * s + y * c;
            float end = std::min(1.0f, std::max(0.0f, length / 2 + 0.5f - std::abs(along)));
            k.at<float>(y + half, x + half) = end * std::exp(-0.5f * across * across / (sigma * sigma));
        }
    return k / cv::sum(k)[0];
}

/// A line kernel as the list of its taps that matter (at least `least` of its peak, by default
/// 1 %): a line of length L covers some 3 L of its (L + 6)² cells, so a filter that visits only
/// these does a tenth of the work of a dense one.
struct Tap {
    int dx, dy;
    float weight;
};

std::vector<Tap> lineTaps(float length, float angle, float sigma, float least = 0.01f) {
    cv::Mat k = lineKernel(length, angle, sigma);
    double peak = 0;
    cv::minMaxLoc(k, nullptr, &peak);
    int half = k.rows / 2;
    std::vector<Tap> taps;
    for (int y = 0; y < k.rows; y++)
        for (int x = 0; x < k.cols; x++)
            if (float w = k.at<float>(y, x); w >= least * float(peak)) taps.push_back({x - half, y - half, w});
    return taps;
}

/// A line's taps as runs of neighbouring pixels along a row (one run per row it crosses, the
/// weights below 1 % of its peak inside a run as 0): read and written a run at a time, which
/// the processor does several pixels at once. On a transposed image (`transposed`) the runs
/// go down the original's columns.
struct TapRuns {
    struct Run {
        int offset, count, first; // from the pixel, pixels in the run, its first weight
    };
    std::vector<Run> runs;
    std::vector<float> weights;

    TapRuns() = default;
    TapRuns(const std::vector<Tap> &taps, int stride, bool transposed) {
        std::vector<std::tuple<int, int, float>> cells; // (row, column, weight) in the image read
        for (const Tap &t : taps) cells.emplace_back(transposed ? t.dx : t.dy, transposed ? t.dy : t.dx, t.weight);
        std::sort(cells.begin(), cells.end());
        for (size_t i = 0; i < cells.size();) {
            size_t j = i;
            while (j < cells.size() && std::get<0>(cells[j]) == std::get<0>(cells[i])) j++;
            int r = std::get<0>(cells[i]), c0 = std::get<1>(cells[i]), c1 = std::get<1>(cells[j - 1]);
            // Whole groups of four, the last filled out with 0 (the image has room: `slack`).
            int count = (c1 - c0 + 1 + 3) / 4 * 4;
            runs.push_back({r * stride + c0, count, int(weights.size())});
            weights.resize(weights.size() + size_t(count), 0.0f);
            for (size_t k = i; k < j; k++) weights[runs.back().first + std::get<1>(cells[k]) - c0] = std::get<2>(cells[k]);
            i = j;
        }
    }

    /// How far past a line's own taps its runs read and write (their filling to four).
    static constexpr int slack = 3;

    typedef float Four __attribute__((vector_size(16)));
    static Four load(const float *p) {
        Four v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }

    /// The weighted sum of the pixels around `at`.
    float gather(const float *at) const {
        Four sum = {0, 0, 0, 0};
        for (const Run &run : runs) {
            const float *w = weights.data() + run.first, *v = at + run.offset;
            for (int k = 0; k < run.count; k += 4) sum += load(w + k) * load(v + k);
        }
        return (sum[0] + sum[1]) + (sum[2] + sum[3]);
    }

    /// Adds `value` times the weights around `at`.
    void draw(float *at, float value) const {
        for (const Run &run : runs) {
            const float *w = weights.data() + run.first;
            float *out = at + run.offset;
            for (int k = 0; k < run.count; k += 4) {
                Four sum = load(out + k) + load(w + k) * value;
                std::memcpy(out + k, &sum, sizeof sum);
            }
        }
    }
};

#if defined(__x86_64__)
/// `TapRuns::gather` at eight neighbouring pixels at once (`base` is the first one's centre,
/// the others follow it in memory): each pixel's four partial sums are kept apart, one
/// register each, and added up as `gather` adds them, so each pixel gets the same sum to the
/// bit (no fused multiply-adds).
__attribute__((target("avx2"))) void gatherEight(const TapRuns &line, const float *base, float *out) {
    __m256 sum0 = _mm256_setzero_ps(), sum1 = sum0, sum2 = sum0, sum3 = sum0;
    for (const TapRuns::Run &run : line.runs) {
        const float *w = line.weights.data() + run.first, *v = base + run.offset;
        for (int k = 0; k < run.count; k += 4) {
            sum0 = _mm256_add_ps(sum0, _mm256_mul_ps(_mm256_set1_ps(w[k]), _mm256_loadu_ps(v + k)));
            sum1 = _mm256_add_ps(sum1, _mm256_mul_ps(_mm256_set1_ps(w[k + 1]), _mm256_loadu_ps(v + k + 1)));
            sum2 = _mm256_add_ps(sum2, _mm256_mul_ps(_mm256_set1_ps(w[k + 2]), _mm256_loadu_ps(v + k + 2)));
            sum3 = _mm256_add_ps(sum3, _mm256_mul_ps(_mm256_set1_ps(w[k + 3]), _mm256_loadu_ps(v + k + 3)));
        }
    }
    _mm256_storeu_ps(out, _mm256_add_ps(_mm256_add_ps(sum0, sum1), _mm256_add_ps(sum2, sum3)));
}

/// `gatherEight` at sixteen neighbouring pixels in AVX-512 registers: the same partial sums,
/// lane for lane, so the same sums to the bit.
__attribute__((target("avx512f"))) void gatherSixteen(const TapRuns &line, const float *base, float *out) {
    __m512 sum0 = _mm512_setzero_ps(), sum1 = sum0, sum2 = sum0, sum3 = sum0;
    for (const TapRuns::Run &run : line.runs) {
        const float *w = line.weights.data() + run.first, *v = base + run.offset;
        for (int k = 0; k < run.count; k += 4) {
            sum0 = _mm512_add_ps(sum0, _mm512_mul_ps(_mm512_set1_ps(w[k]), _mm512_loadu_ps(v + k)));
            sum1 = _mm512_add_ps(sum1, _mm512_mul_ps(_mm512_set1_ps(w[k + 1]), _mm512_loadu_ps(v + k + 1)));
            sum2 = _mm512_add_ps(sum2, _mm512_mul_ps(_mm512_set1_ps(w[k + 2]), _mm512_loadu_ps(v + k + 2)));
            sum3 = _mm512_add_ps(sum3, _mm512_mul_ps(_mm512_set1_ps(w[k + 3]), _mm512_loadu_ps(v + k + 3)));
        }
    }
    _mm512_storeu_ps(out, _mm512_add_ps(_mm512_add_ps(sum0, sum1), _mm512_add_ps(sum2, sum3)));
}

/// `chooseEight` for sixteen pixels (`sums[direction][pixel]`).
__attribute__((target("avx512f"))) void chooseSixteen(const float (*sums)[16], uint8_t *out) {
    __m512 best = _mm512_loadu_ps(sums[0]);
    __m512i index = _mm512_setzero_si512();
    for (int i = 1; i < 8; i++) {
        __m512 sum = _mm512_loadu_ps(sums[i]);
        __mmask16 greater = _mm512_cmp_ps_mask(sum, best, _CMP_GT_OQ);
        best = _mm512_mask_blend_ps(greater, best, sum);
        index = _mm512_mask_blend_epi32(greater, index, _mm512_set1_epi32(i));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out), _mm512_cvtepi32_epi8(index));
}

/// For eight pixels, the first of the eight directions whose sum (`sums[direction][pixel]`) is
/// the greatest, as the scalar choice makes it (`sum > best`, in order), into `out`.
__attribute__((target("avx2"))) void chooseEight(const float (*sums)[8], uint8_t *out) {
    __m256 best = _mm256_loadu_ps(sums[0]);
    __m256i index = _mm256_setzero_si256();
    for (int i = 1; i < 8; i++) {
        __m256 sum = _mm256_loadu_ps(sums[i]);
        __m256 greater = _mm256_cmp_ps(sum, best, _CMP_GT_OQ);
        best = _mm256_blendv_ps(best, sum, greater);
        index = _mm256_blendv_epi8(index, _mm256_set1_epi32(i), _mm256_castps_si256(greater));
    }
    alignas(32) int32_t chosen[8];
    _mm256_store_si256(reinterpret_cast<__m256i *>(chosen), index);
    for (int k = 0; k < 8; k++) out[k] = uint8_t(chosen[k]);
}
#endif

/// The value below which `fraction` of a float image's pixels lie: the i-th smallest, i =
/// fraction (n - 1). Found as a radix select does: the values counted by the top 12 bits of
/// their order-keeping keys (sign, exponent, 3 bits of mantissa), then only those of the bin
/// holding the i-th put in order (`nth_element` over all of them took ~1 % of a clip's CPU).
float percentile(const cv::Mat &m, float fraction) {
    const size_t n = m.total();
    const size_t i = std::min(n - 1, size_t(fraction * (n - 1)));
    // Keys that order as the floats do: negative values flipped whole, the others' sign set.
    auto key = [](float v) {
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
    };
    std::vector<uint32_t> counts(4096, 0);
    for (int y = 0; y < m.rows; y++) {
        const float *row = m.ptr<float>(y);
        for (int x = 0; x < m.cols; x++) counts[key(row[x]) >> 20]++;
    }
    uint32_t bin = 0;
    size_t below = 0;
    while (below + counts[bin] <= i) below += counts[bin++];
    std::vector<float> inBin;
    inBin.reserve(counts[bin]);
    for (int y = 0; y < m.rows; y++) {
        const float *row = m.ptr<float>(y);
        for (int x = 0; x < m.cols; x++)
            if (key(row[x]) >> 20 == bin) inBin.push_back(row[x]);
    }
    std::nth_element(inBin.begin(), inBin.begin() + (i - below), inBin.end());
    return inBin[i - below];
}

/// Adds the margin `reach` wide around `padded`'s middle back into it, mirrored at its edges
/// (as a border that reflects the image would have given it).
void foldMargins(cv::Mat &padded, int reach) {
    int w = padded.cols - 2 * reach, h = padded.rows - 2 * reach;
    for (int y = 0; y < padded.rows; y++) {
        float *row = padded.ptr<float>(y);
        for (int j = 0; j < reach; j++) {
            row[reach + std::min(j, w - 1)] += row[reach - 1 - j];
            row[reach + w - 1 - std::min(j, w - 1)] += row[reach + w + j];
        }
    }
    for (int j = 0; j < reach; j++) {
        float *top = padded.ptr<float>(reach + std::min(j, h - 1)), *bottom = padded.ptr<float>(reach + h - 1 - std::min(j, h - 1));
        const float *above = padded.ptr<float>(reach - 1 - j), *below = padded.ptr<float>(reach + h + j);
        for (int x = reach; x < reach + w; x++) {
            top[x] += above[x];
            bottom[x] += below[x];
        }
    }
}

/// The stroke map (see sk_pencil_strokes) of an 8-bit grey image into `outBytes`.
///
/// As Lu, Xu & Jia draw it, with the work cut to what changes the result. Only pixels with some
/// gradient left after the skin threshold (a third or fewer) draw. Each reads its 8 directions'
/// lines around it (the taps of each line kernel that matter, not its whole square) and adds
/// its gradient along the line of the direction that gathered most: the same sum as filtering
/// every direction's share of the gradient by its line kernel (the kernels are symmetric), at
/// a fraction of the work. (Taking the direction from the tangent flow instead was cheaper
/// still, but lost to this in a blind A/B: heavier, muddier outlines.)
void pencilStrokes(const cv::Mat &grey, float length, float widthPx, float gain, unsigned char *outBytes,
                   cv::Rect skin = cv::Rect()) {
    const int width = grey.cols, height = grey.rows;
    // The gradient's magnitude (forward differences, as in the paper).
    cv::Mat gx = cv::Mat::zeros(grey.size(), CV_32F), gy = cv::Mat::zeros(grey.size(), CV_32F);
    if (width > 1)
        cv::subtract(grey(cv::Rect(1, 0, width - 1, height)), grey(cv::Rect(0, 0, width - 1, height)), gx(cv::Rect(0, 0, width - 1, height)));
    if (height > 1)
        cv::subtract(grey(cv::Rect(0, 1, width, height - 1)), grey(cv::Rect(0, 0, width, height - 1)), gy(cv::Rect(0, 0, width, height - 1)));
    cv::Mat g;
    cv::magnitude(gx, gy, g);
    // Skin texture and noise sit below the typical gradient: only what rises above it draws,
    // so cheeks stay clean and edges keep their strength. With the faces given (`skin`), how
    // strong an edge must be is set by their own gradients (1.4 x their 40th percentile), so a
    // face draws alike whatever surrounds it and however much of that the crop holds; else by
    // the whole crop's (1.5 x its 60th percentile: on the example photos' faces, the same
    // level on average).
    skin &= cv::Rect(0, 0, width, height);
    float threshold = skin.area() >= 16 ? 1.4f * percentile(g(skin), 0.4f) : 1.5f * percentile(g, 0.6f);
    g = cv::max(g - threshold, 0.0f);

    const int directions = 8;
    length = std::max(3.0f, length);
    std::vector<Tap> gather[directions], draw[directions];
    int reach = 1;
    for (int i = 0; i < directions; i++) {
        float angle = float(CV_PI) * i / directions;
        gather[i] = lineTaps(length, angle, 0.6f);
        draw[i] = lineTaps(length, angle, std::max(0.5f, widthPx / 2));
        for (const auto *taps : {&gather[i], &draw[i]})
            for (const Tap &t : *taps) reach = std::max({reach, std::abs(t.dx), std::abs(t.dy)});
    }
    // Room for the runs' filling too: read as 0 x the reflected gradient, written as + 0.
    reach += TapRuns::slack;
    cv::Mat source;
    cv::copyMakeBorder(g, source, reach, reach, reach, reach, cv::BORDER_REFLECT);
    // The lines nearer upright (67.5 to 112.5 degrees) read and draw on transposed copies, so
    // that every line is a few long runs of neighbouring pixels along a row, read and written
    // in runs rather than tap by tap.
    cv::Mat sourceT = source.t();
    cv::Mat drawn = cv::Mat::zeros(source.size(), CV_32F), drawnT = cv::Mat::zeros(sourceT.size(), CV_32F);
    auto upright = [](int i) { return i >= 3 && i <= 5; };
    TapRuns gatherRuns[directions], drawRuns[directions];
    for (int i = 0; i < directions; i++) {
        int stride = upright(i) ? sourceT.cols : source.cols;
        gatherRuns[i] = TapRuns(gather[i], stride, upright(i));
        drawRuns[i] = TapRuns(draw[i], stride, upright(i));
    }
    // What each direction's line gathers around a pixel, and the first direction that gathers
    // the most (`sum(i)`): pixels on an edge vote for the edge's own direction, noise spreads
    // over all of them.
    auto gathered = [&](int i, int x, int y) {
        return upright(i) ? gatherRuns[i].gather(sourceT.ptr<float>(x + reach) + y + reach)
                          : gatherRuns[i].gather(source.ptr<float>(y + reach) + x + reach);
    };
    auto choice = [&](auto sum) {
        int best = 0;
        float bestSum = 0;
        for (int i = 0; i < directions; i++) {
            float s = sum(i);
            if (i == 0 || s > bestSum) { best = i; bestSum = s; }
        }
        return best;
    };
    // With AVX2, each drawing pixel's direction is chosen first, eight neighbours at a time
    // (sixteen with AVX-512): the upright lines' sums down the transposed copy's rows, then the
    // others' along the rows and the choice, made as below (the first direction with the
    // greatest sum). The drawing then goes as below, in the same order.
    std::unique_ptr<uint8_t[]> chosen;
#if defined(__x86_64__)
    if (vectorInstructions()) {
        const size_t plane = size_t(width) * height;
        chosen.reset(new uint8_t[plane]);
        // Directions 3, 4, 5; zeroed, as a block copies all its pixels' sums, drawing or not.
        std::unique_ptr<float[]> uprightSums(new float[3 * plane]());
        auto uprightSum = [&](int i, int x, int y) -> float & { return uprightSums[(i - 3) * plane + size_t(y) * width + x]; };
        float eight[8], sixteen[16];
        // Sixteen at a time with AVX-512, the same sums.
        const bool wide = wideVectorInstructions();
        for (int x = 0; x < width; x++) {
            int y = 0;
            for (; wide && y + 16 <= height; y += 16) {
                bool any = false;
                for (int k = 0; k < 16 && !any; k++) any = g.at<float>(y + k, x) > 0;
                if (!any) continue;
                for (int i = 3; i <= 5; i++) {
                    gatherSixteen(gatherRuns[i], sourceT.ptr<float>(x + reach) + y + reach, sixteen);
                    for (int k = 0; k < 16; k++) uprightSum(i, x, y + k) = sixteen[k];
                }
            }
            for (; y + 8 <= height; y += 8) {
                bool any = false;
                for (int k = 0; k < 8 && !any; k++) any = g.at<float>(y + k, x) > 0;
                if (!any) continue;
                for (int i = 3; i <= 5; i++) {
                    gatherEight(gatherRuns[i], sourceT.ptr<float>(x + reach) + y + reach, eight);
                    for (int k = 0; k < 8; k++) uprightSum(i, x, y + k) = eight[k];
                }
            }
            for (; y < height; y++)
                if (g.at<float>(y, x) > 0)
                    for (int i = 3; i <= 5; i++) uprightSum(i, x, y) = gathered(i, x, y);
        }
        for (int y = 0; y < height; y++) {
            const float *row = g.ptr<float>(y);
            uint8_t *best = chosen.get() + size_t(y) * width;
            int x = 0;
            for (; wide && x + 16 <= width; x += 16) {
                if (std::none_of(row + x, row + x + 16, [](float v) { return v > 0; })) continue;
                float sums[directions][16];
                for (int i = 0; i < directions; i++) {
                    if (upright(i)) std::copy(&uprightSum(i, x, y), &uprightSum(i, x, y) + 16, sums[i]);
                    else gatherSixteen(gatherRuns[i], source.ptr<float>(y + reach) + x + reach, sums[i]);
                }
                chooseSixteen(sums, best + x);
            }
            for (; x + 8 <= width; x += 8) {
                if (std::none_of(row + x, row + x + 8, [](float v) { return v > 0; })) continue;
                float sums[directions][8];
                for (int i = 0; i < directions; i++) {
                    if (upright(i)) std::copy(&uprightSum(i, x, y), &uprightSum(i, x, y) + 8, sums[i]);
                    else gatherEight(gatherRuns[i], source.ptr<float>(y + reach) + x + reach, sums[i]);
                }
                chooseEight(sums, best + x);
            }
            for (; x < width; x++)
                if (row[x] > 0) best[x] = uint8_t(choice([&](int i) { return upright(i) ? uprightSum(i, x, y) : gathered(i, x, y); }));
        }
    }
#endif
    for (int y = 0; y < height; y++) {
        const float *row = g.ptr<float>(y);
        for (int x = 0; x < width; x++) {
            float v = row[x];
            if (v <= 0) continue;
            int best = chosen ? chosen[size_t(y) * width + x] : choice([&](int i) { return gathered(i, x, y); });
            if (upright(best)) drawRuns[best].draw(drawnT.ptr<float>(x + reach) + y + reach, v);
            else drawRuns[best].draw(drawn.ptr<float>(y + reach) + x + reach, v);
        }
    }
    drawn += drawnT.t();
    foldMargins(drawn, reach);
    cv::Mat strokes = drawn(cv::Rect(reach, reach, width, height));
    // Scaled by the crop's strongest strokes (not its single strongest), so a dim photo still
    // gets dark lines; a floor keeps a flat crop from turning its noise into strokes.
    // With the faces given, their own strongest strokes, so a face's lines are as dark whatever
    // its crop holds (1.175 x: over the example photos' faces, the crop's level at the median).
    float top = std::max(skin.area() >= 16 ? 1.175f * percentile(strokes(skin), 0.995f) : percentile(strokes, 0.995f), 0.012f);
    cv::Mat out(height, width, CV_8U, outBytes);
    cv::Mat paper = 1.0f - cv::min(strokes * (gain / top), 1.0f);
    paper.convertTo(out, CV_8U, 255.0);
}

/// The stroke map of an 8-bit grey image.
void pencilStrokes(const unsigned char *greyBytes, int width, int height, float length, float widthPx,
                   float gain, cv::Rect skin, unsigned char *outBytes) {
    checkImage(greyBytes, width, height);
    cv::Mat grey;
    cv::Mat(height, width, CV_8U, const_cast<unsigned char *>(greyBytes)).convertTo(grey, CV_32F, 1.0 / 255);
    pencilStrokes(grey, length, widthPx, gain, outBytes, skin);
}

// MARK: Graphite texture

/// `m` filtered by `kernel` as if it repeated on every side: strokes leaving one edge come
/// back at the opposite one, so tiles of the result join without a seam.
cv::Mat wrappedFilter(const cv::Mat &m, const cv::Mat &kernel) {
    int rx = kernel.cols / 2, ry = kernel.rows / 2;
    cv::Mat padded, filtered;
    if (rx < m.cols && ry < m.rows) {
        cv::copyMakeBorder(m, padded, ry, ry, rx, rx, cv::BORDER_WRAP);
    } else {
        // A tile smaller than the kernel: repeated as often as the kernel reaches.
        int reps = 1 + 2 * std::max((rx + m.cols - 1) / m.cols, (ry + m.rows - 1) / m.rows);
        cv::Mat tiled;
        cv::repeat(m, reps, reps, tiled);
        int ox = (reps / 2) * m.cols, oy = (reps / 2) * m.rows;
        padded = tiled(cv::Rect(ox - rx, oy - ry, m.cols + 2 * rx, m.rows + 2 * ry)).clone();
    }
    cv::filter2D(padded, filtered, CV_32F, kernel, cv::Point(-1, -1), 0, cv::BORDER_CONSTANT);
    return filtered(cv::Rect(rx, ry, m.cols, m.rows)).clone();
}

/// A row of `hashUnit(x, y, seed)`, x in 0..<width: plain, or eight at a time with AVX2,
/// sixteen with AVX-512 (the same integer hash, conversion and division, so the same values).
void hashRowPlain(int y, unsigned seed, int width, float *out) {
    for (int x = 0; x < width; x++) out[x] = hashUnit(x, y, seed);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void hashRowEight(int y, unsigned seed, int width, float *out) {
    for (int x = 0; x < width; x++) out[x] = hashUnit(x, y, seed);
}

__attribute__((target("avx512f"))) void hashRowSixteen(int y, unsigned seed, int width, float *out) {
    for (int x = 0; x < width; x++) out[x] = hashUnit(x, y, seed);
}
#endif

void hashRow(int y, unsigned seed, int width, float *out) {
#if defined(__x86_64__)
    if (wideVectorInstructions()) return hashRowSixteen(y, seed, width, out);
    if (vectorInstructions()) return hashRowEight(y, seed, width, out);
#endif
    hashRowPlain(y, seed, width, out);
}

#if defined(__x86_64__)
/// `columnsBelow`'s first whole eights with AVX2: where it stopped (`count` columns found).
__attribute__((target("avx2"))) int columnsBelowEight(const float *chance, int width, float below, int *columns, int &count) {
    const __m256 limit = _mm256_set1_ps(below);
    int x = 0;
    for (; x + 8 <= width; x += 8) {
        unsigned mask = unsigned(_mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(chance + x), limit, _CMP_LT_OQ)));
        while (mask) {
            columns[count++] = x + __builtin_ctz(mask);
            mask &= mask - 1;
        }
    }
    return x;
}
#endif

/// The columns of a row whose `chance` is below `below`, in order, into `columns`; their count.
/// A few in a hundred are: with AVX2, eight compared at once and the few found from the mask.
int columnsBelow(const float *chance, int width, float below, int *columns) {
    int count = 0, x = 0;
#if defined(__x86_64__)
    if (vectorInstructions()) x = columnsBelowEight(chance, width, below, columns, count);
#endif
    for (; x < width; x++)
        if (chance[x] < below) columns[count++] = x;
    return count;
}

/// How a texture's strokes are laid: in three families of different lengths and slightly
/// different slants (`varied`: graphite, the edges' ramps), or all at the full length and one
/// slant (`even`: pencil's hatching, which reads as shading rather than as hair).
enum class StrokeFamilies { varied, even };

/// The last `kept` values made for their keys, newest first, shared between threads: a value
/// is made once and handed out until it is among the least recently asked for. It is made
/// outside the lock (a texture tile takes milliseconds, and two faces drawn side by side each
/// make their own): a thread asking for a value another is making waits for that one alone. So
/// it is never asked for from inside an OpenCV parallel loop's body (see `pencil`).
template <typename Key, typename Value> class Recent {
  public:
    explicit Recent(size_t kept) : kept(kept) {}
    template <typename Make> std::shared_ptr<const Value> get(const Key &key, Make make) {
        std::promise<std::shared_ptr<const Value>> promise;
        Made made;
        {
            std::lock_guard<std::mutex> guard(lock);
            auto it = std::find_if(values.begin(), values.end(), [&](const auto &entry) { return entry.first == key; });
            if (it != values.end()) {
                values.splice(values.begin(), values, it);
                made = values.front().second;
            } else {
                values.emplace_front(key, promise.get_future().share());
                if (values.size() > kept) values.pop_back();
            }
        }
        if (made.valid()) return made.get();
        try {
            std::shared_ptr<const Value> value = make();
            promise.set_value(value);
            return value;
        } catch (...) {
            // Those waiting get the error; later calls try again.
            promise.set_exception(std::current_exception());
            std::lock_guard<std::mutex> guard(lock);
            values.remove_if([&](const auto &entry) { return entry.first == key; });
            throw;
        }
    }

  private:
    using Made = std::shared_future<std::shared_ptr<const Value>>;
    const size_t kept;
    std::mutex lock;
    std::list<std::pair<Key, Made>> values;
};

/// The paper's own grain in a texture: hashed noise, softened, wrapping round the tile's edges.
/// Made once per size and seed and shared (a pencil face's slants share their grain): it cost
/// a quarter of a tile.
std::shared_ptr<const cv::Mat> textureGrain(int width, int height, unsigned seed) {
    static Recent<std::tuple<int, int, unsigned>, cv::Mat> made(4);
    return made.get({width, height, seed}, [&] {
        cv::Mat grain(height, width, CV_32F);
        for (int y = 0; y < height; y++) hashRow(y, seed ^ 0x9e3779b9u, width, grain.ptr<float>(y));
        return std::make_shared<const cv::Mat>(
            wrappedFilter(grain, cv::getGaussianKernel(5, 0.7, CV_32F) * cv::getGaussianKernel(5, 0.7, CV_32F).t()));
    });
}

/// A texture of strokes seeded by `seed`, its paper grain by `grainSeed`.
void pencilTexture(int width, int height, float length, float widthPx, float angle, unsigned seed,
                   unsigned char *outBytes, StrokeFamilies families, unsigned grainSeed) {
    checkSize(width, height);
    length = std::max(3.0f, length);
    widthPx = std::max(0.5f, widthPx);
    // Graphite laid in families of parallel strokes (three of different lengths and slightly
    // different slants, or one), each stroke starting at a seeded dot with a seeded pressure.
    //
    // Each stroke is added where its dot falls (its line's taps, wrapping round the tile's
    // edges) rather than filtering the whole tile of dots with the line: a few dots in a
    // hundred draw, so this is the same sum (less the kernel's cells under 0.2 % of its peak)
    // for a small part of the work. (A tile made by filtering cost 30-85 ms; a clip whose faces
    // change size makes new ones as it goes.)
    cv::Mat graphite = cv::Mat::zeros(height, width, CV_32F);
    // Varied: three families. Even: the first alone, with the whole share of strokes.
    const bool even = families == StrokeFamilies::even;
    const float slant[3] = {0.0f, 0.22f, -0.13f}, reach[3] = {1.0f, 0.65f, 0.4f};
    const float share[3] = {even ? 1.0f : 0.5f, 0.3f, 0.2f};
    std::vector<float> chance(width);
    std::vector<int> starts(width);
    for (int family = 0; family < (even ? 1 : 3); family++) {
        float perPixel = share[family] * 1.6f / (length * reach[family] * widthPx);
        float len = length * reach[family];
        const std::vector<Tap> taps = lineTaps(len, angle + slant[family], widthPx / 2, 0.002f);
        // A stroke whose taps all fall inside the tile adds them at offsets from its dot (the
        // same pixels, in the same order, as wrapping each); one near an edge wraps them.
        std::vector<Tap> wrappedTaps = taps;
        std::vector<ptrdiff_t> offsets(taps.size());
        // Inside the tile, with room for the runs' filling, a stroke is added a run of
        // neighbouring pixels at a time (the same sums: + 0 x the dot past its taps).
        const TapRuns runs(taps, width, false);
        int left = 0, right = 0, top = 0, bottom = 0;
        for (size_t k = 0; k < taps.size(); k++) {
            const Tap &t = taps[k];
            left = std::min(left, t.dx); right = std::max(right, t.dx);
            top = std::min(top, t.dy); bottom = std::max(bottom, t.dy);
            offsets[k] = ptrdiff_t(t.dy) * width + t.dx;
            wrappedTaps[k].dx = (t.dx % width + width) % width;
            wrappedTaps[k].dy = (t.dy % height + height) % height;
        }
        for (int y = 0; y < height; y++) {
            // Where a stroke starts: each pixel's chance first, a row at a time (eight pixels at
            // once with AVX2, sixteen with AVX-512), then the few that draw.
            hashRow(y, seed * 3 + family, width, chance.data());
            const int startCount = columnsBelow(chance.data(), width, perPixel, starts.data());
            const bool rowInside = y + top >= 0 && y + bottom < height;
            for (int i = 0; i < startCount; i++) {
                const int x = starts[i];
                float dot = (0.4f + 0.6f * hashUnit(y, x, seed * 7 + family)) * len;
                if (rowInside && x + left >= 0 && x + right + TapRuns::slack < width) {
                    runs.draw(graphite.ptr<float>(y) + x, dot);
                    continue;
                }
                if (rowInside && x + left >= 0 && x + right < width) {
                    float *at = graphite.ptr<float>(y) + x;
                    for (size_t k = 0; k < taps.size(); k++) at[offsets[k]] += dot * taps[k].weight;
                    continue;
                }
                for (const Tap &t : wrappedTaps) {
                    int tx = x + t.dx, ty = y + t.dy;
                    if (tx >= width) tx -= width;
                    if (ty >= height) ty -= height;
                    graphite.at<float>(ty, tx) += dot * t.weight;
                }
            }
        }
    }
    // The paper's own grain, fine and faint.
    const std::shared_ptr<const cv::Mat> grain = textureGrain(width, height, grainSeed);
    // Layers of graphite absorb light multiplicatively: tone = exp(-k graphite), scaled so the
    // texture's mean is a middle grey with no pure paper left (every tone can be reached by a
    // power of it) and no pure black.
    cv::Mat tone;
    cv::exp(graphite * -1.2f, tone);
    tone = tone.mul(1.0f - 0.25f * *grain);
    double mean = cv::mean(tone)[0];
    tone = tone * (0.62 / std::max(mean, 1e-3));
    cv::Mat out(height, width, CV_8U, outBytes);
    cv::Mat clipped = cv::max(cv::min(tone, 0.96f), 0.08f);
    clipped.convertTo(out, CV_8U, 255.0);
}

/// A square graphite texture that wraps around, as the exponents that shade with it: a tone t
/// is laid in as t^exponent (the texture's log brightness over its mean log brightness, so each
/// area comes out at t on average). Made once per stroke size and slant, and shared: a face
/// takes a window of it at an offset chosen by its seed, so faces do not repeat each other and
/// the same face is hatched alike from frame to frame.
struct TextureTile {
    int side;
    std::vector<unsigned char> level; // side x side
    float exponentOf[256];            // a level's exponent
    float meanLog;                    // the mean natural log of its brightness (negative)
    /// The exponent at a pixel (`at` = row x side + column).
    float exponent(size_t at) const { return exponentOf[level[at]]; }
};

/// Stroke sizes are rounded to an eighth of an octave before a tile is made or looked up, so a
/// face whose size wavers by a pixel between frames keeps its tile (and its strokes).
float roundedSize(float value) {
    return std::exp2(std::round(8 * std::log2(std::max(value, 0.25f))) / 8);
}

/// `variant` seeds the strokes' dots: tiles of neighbouring slants that a face's hatching
/// blends between do not start their strokes at the same dots.
std::shared_ptr<const TextureTile> textureTile(float length, float widthPx, float angle, StrokeFamilies families,
                                               unsigned variant = 0) {
    // 256 kB each for the usual 512 × 512: a pencil face at one stroke size takes up to 16 (8
    // slants, 2 layers), and a clip of 8 faces of different sizes thrashed 48 (4.04x the floor
    // against 3.33x with these).
    static Recent<std::tuple<float, float, float, StrokeFamilies, unsigned>, TextureTile> made(160);
    return made.get({length, widthPx, angle, families, variant}, [&] {
        // Several strokes long, so its repeats are not seen.
        int side = std::max(512, int(std::ceil(4 * length)));
        auto tile = std::make_shared<TextureTile>();
        tile->side = side;
        tile->level.resize(size_t(side) * side);
        // Every variant's strokes seeded apart, on the same paper.
        pencilTexture(side, side, length, widthPx, angle, 0x5e7c11u + 0x9e37u * variant, tile->level.data(), families, 0x5e7c11u);
        // The tile's bytes take 256 values: their logs are taken once each, not once a pixel.
        float logOf[256];
        for (int level = 0; level < 256; level++) logOf[level] = std::log(level / 255.0f);
        double sum = 0;
        for (unsigned char b : tile->level) sum += logOf[b];
        float meanLog = std::min(-0.01f, float(sum / double(tile->level.size())));
        for (int level = 0; level < 256; level++) tile->exponentOf[level] = logOf[level] / meanLog;
        tile->meanLog = meanLog;
        return std::shared_ptr<const TextureTile>(tile);
    });
}

/// Where a seed puts a face's window in a tile.
cv::Point tileOffset(unsigned seed, int side) {
    return {int(hashUnit(seed, 1, 0x7a11u) * float(side - 1)), int(hashUnit(seed, 2, 0x7a11u) * float(side - 1))};
}

// MARK: Hatching that turns with the forms

/// The slants a pencil face's hatching is laid at: the plan's own and seven more, an eighth of a
/// half turn apart.
constexpr int hatchSlants = 8;

/// Where a face's hatching turns: each block's turn from the fixed slant, in slants (0...8, a
/// half turn), enlarged a row of pixels at a time as the drawing goes (bilinear, as cv::resize
/// would, from the blocks' centres; across the half turn's wrap, from the nearer side): one
/// arctangent a block rather than a pixel, and no field the size of a whole photo held.
struct HatchDirections {
    cv::Mat turns; // CV_32F, a block each
    int factor = 1, left = 0, top = 0;
    std::vector<int> column;         // a pixel's block column
    std::vector<float> columnShare;  // and how far toward the next
    bool used[hatchSlants] = {};     // the slants some pixel may take

    /// A row's blocks and how far down between them.
    struct Row {
        const float *above, *below;
        float down;
    };
    Row row(int y) const {
        float at = std::max(0.0f, (float(y + top) + 0.5f) / float(factor) - 0.5f);
        const int r = std::min(turns.rows - 1, int(at)), next = std::min(turns.rows - 1, r + 1);
        return {turns.ptr<float>(r), turns.ptr<float>(next), at - float(r)};
    }

    /// A row's pixels' slants below their directions (0 = the fixed one) and how far toward the
    /// next (0...255; selects rather than branches on the pixels' values).
    void fill(int y, unsigned char *slant, unsigned char *toward) const {
        const Row r = row(y);
        const float half = hatchSlants / 2.0f, full = hatchSlants;
        const int width = int(column.size()), last = turns.cols - 1;
        for (int x = 0; x < width; x++) {
            const int i = column[x], j = std::min(last, i + 1);
            const float f = columnShare[x];
            const float a = r.above[i];
            float b = r.above[j], c = r.below[i], d = r.below[j];
            b += b - a > half ? -full : b - a < -half ? full : 0.0f;
            c += c - a > half ? -full : c - a < -half ? full : 0.0f;
            d += d - a > half ? -full : d - a < -half ? full : 0.0f;
            const float upper = a + (b - a) * f, lower = c + (d - c) * f;
            float turn = upper + (lower - upper) * r.down;
            turn += turn < 0 ? full : turn >= full ? -full : 0.0f;
            // The fixed slant's own, rounding aside, as 0.
            turn = turn > full - 0.5f / 255 ? 0.0f : turn;
            const int k = std::min(hatchSlants - 1, int(turn));
            slant[x] = (unsigned char)k;
            toward[x] = (unsigned char)std::min(255, int(255 * (turn - float(k)) + 0.5f));
        }
    }
};

/// The hatching's direction along the tone's isophotes, as a hand shades a form: across a
/// jaw's shadow, not down it. The forms are the grey's at the scale of the face (`formSize`
/// pixels across): its gradients' structure tensor, on a copy where the face is some 64
/// pixels across, softened over an eighth of the face. The plan's fixed slant weighs in as a
/// tensor of its own, the face's mean gradient energy over `follow`: where the forms are weak
/// (flat light, a small face's few pixels) the strokes keep the fixed slant, and a form as
/// marked as the face's usual shading outweighs it `follow` to one. The copy is reduced by whole
/// blocks laid from the canvas's corner (`origin`), so a part of a picture turns its strokes
/// as the whole does.
HatchDirections hatchDirections(const cv::Mat &grey, float formSize, float follow, float fixedSlant, cv::Rect skin,
                                cv::Point origin) {
    const int width = grey.cols, height = grey.rows;
    const int factor = std::max(1, int(std::lround(formSize / 64)));
    const int left = origin.x % factor, top = origin.y % factor;
    const int across = (left + width + factor - 1) / factor, down = (top + height + factor - 1) / factor;
    cv::Mat blocks, small;
    cv::copyMakeBorder(grey, blocks, top, down * factor - top - height, left, across * factor - left - width, cv::BORDER_REPLICATE);
    if (factor > 1) reducedByArea(blocks, small, cv::Size(across, down));
    else small = blocks;
    cv::Mat levels;
    small.convertTo(levels, CV_32F, 1.0 / 255);
    const float face = formSize / float(factor);
    blurred(levels, levels, std::max(0.5f, 0.04f * face));
    cv::Mat gx, gy;
    cv::Sobel(levels, gx, CV_32F, 1, 0, 3, 1.0 / 8, 0, cv::BORDER_REFLECT);
    cv::Sobel(levels, gy, CV_32F, 0, 1, 3, 1.0 / 8, 0, cv::BORDER_REFLECT);
    // The tensor as its doubled angle, turned a quarter: the isophotes' direction.
    cv::Mat c = gy.mul(gy) - gx.mul(gx), s = -2 * gx.mul(gy), energy = gx.mul(gx) + gy.mul(gy);
    const float reach = 0.12f * face;
    blurred(c, c, reach);
    blurred(s, s, reach);
    blurred(energy, energy, reach);
    cv::Rect faceBlocks = cv::Rect((skin.x + left) / factor, (skin.y + top) / factor, skin.width / factor, skin.height / factor) &
                          cv::Rect(0, 0, across, down);
    const float mean = float(faceBlocks.area() >= 4 ? cv::mean(energy(faceBlocks))[0] : cv::mean(energy)[0]);
    // (A flat crop, no gradient at all, keeps the fixed slant too.)
    const float fixedWeight = std::max(mean, 1e-9f) / follow;
    c += fixedWeight * std::cos(2 * fixedSlant);
    s += fixedWeight * std::sin(2 * fixedSlant);
    // Each block's turn from the fixed slant, in slants: one arctangent a block, not a pixel.
    const float perSlant = hatchSlants / float(CV_PI);
    HatchDirections out;
    out.turns.create(down, across, CV_32F);
    out.factor = factor, out.left = left, out.top = top;
    for (int y = 0; y < down; y++) {
        const float *cr = c.ptr<float>(y), *sr = s.ptr<float>(y);
        float *t = out.turns.ptr<float>(y);
        for (int x = 0; x < across; x++) {
            float turn = (0.5f * std::atan2(sr[x], cr[x]) - fixedSlant) * perSlant;
            t[x] = turn - hatchSlants * std::floor(turn / hatchSlants);
        }
    }
    out.column.resize(width);
    out.columnShare.resize(width);
    for (int x = 0; x < width; x++) {
        float at = std::max(0.0f, (float(x + left) + 0.5f) / float(factor) - 0.5f);
        out.column[x] = std::min(across - 1, int(at));
        out.columnShare[x] = out.column[x] + 1 < across ? at - float(out.column[x]) : 0.0f;
    }
    // The slants a pixel may take: a pixel's turn lies between its four blocks' (the nearer
    // way round), so each pair of neighbouring rows and columns of blocks gives the range.
    for (int y = 0; y < down; y++) {
        const float *t0 = out.turns.ptr<float>(y), *t1 = out.turns.ptr<float>(std::min(down - 1, y + 1));
        for (int x = 0; x < across; x++) {
            const int x1 = std::min(across - 1, x + 1);
            const float a = t0[x];
            float low = a, high = a;
            for (float t : {t0[x1], t1[x], t1[x1]}) {
                if (t - a > hatchSlants / 2.0f) t -= hatchSlants;
                else if (t - a < -hatchSlants / 2.0f) t += hatchSlants;
                low = std::min(low, t), high = std::max(high, t);
            }
            for (int k = int(std::floor(low)); k <= int(std::floor(high)) + 1; k++)
                out.used[((k % hatchSlants) + hatchSlants) % hatchSlants] = true;
        }
    }
    return out;
}

// MARK: The whole drawing

void pencil(const unsigned char *rgb, int width, int height, const sk_pencil_plan &plan, unsigned char *outRGB) {
    checkImage(rgb, width, height);
    if (!plan.tone_table || !plan.noise || plan.noise_side <= 0)
        throw std::invalid_argument("pencil: tone table and noise tile are required");

    cv::Mat grey;
    blurred(greyOf(rgb, width, height), grey, plan.grey_sigma);

    // Lines: drawn where the face is small enough, then enlarged once.
    cv::Mat lineSource;
    blurred(grey, lineSource, plan.line_sigma);
    if (plan.line_scale < 1) {
        cv::Size small(std::max(1, int(std::lround(width * plan.line_scale))), std::max(1, int(std::lround(height * plan.line_scale))));
        reducedByArea(lineSource, lineSource, small);
    }
    lineSource = lineSource.clone();
    cv::Mat lineGrey;
    lineSource.convertTo(lineGrey, CV_32F, 1.0 / 255);
    cv::Mat strokes(lineSource.size(), CV_8U), contours;
    cv::Rect skin(int(plan.skin_x * plan.line_scale), int(plan.skin_y * plan.line_scale),
                  int(plan.skin_width * plan.line_scale), int(plan.skin_height * plan.line_scale));
    pencilStrokes(lineGrey, plan.stroke_length, plan.stroke_width, plan.stroke_gain, strokes.data, skin);
    // The fine contours, on a coarser copy still where the style asks for one (`contour_scale`),
    // enlarged back.
    cv::Mat contourSource = lineSource;
    if (plan.contour_scale > 0 && plan.contour_scale < 1)
        reducedByArea(lineSource, contourSource, cv::Size(std::max(1, int(std::lround(lineSource.cols * plan.contour_scale))),
                                                          std::max(1, int(std::lround(lineSource.rows * plan.contour_scale)))));
    cv::Mat drawnContours(contourSource.size(), CV_8U);
    flowLines(contourSource.data, contourSource.cols, contourSource.rows, plan.flow_sigma, plan.contour_sigma,
              plan.flow_length, 0.985f, 60, drawnContours.data);
    if (drawnContours.size() != lineSource.size()) cv::resize(drawnContours, contours, lineSource.size(), 0, 0, cv::INTER_LINEAR);
    else contours = drawnContours;
    cv::Mat lines(lineSource.size(), CV_32F);
    for (int y = 0; y < lines.rows; y++) {
        const unsigned char *s = strokes.ptr<unsigned char>(y), *c = contours.ptr<unsigned char>(y);
        float *l = lines.ptr<float>(y);
        for (int x = 0; x < lines.cols; x++)
            l[x] = s[x] / 255.0f * (c[x] * plan.edges / 255.0f + 1 - plan.edges);
    }
    if (lines.size() != grey.size()) cv::resize(lines, lines, grey.size(), 0, 0, cv::INTER_CUBIC);

    // Tone and hatching: everything that depends only on a pixel's softened grey level is
    // looked up, per level.
    cv::Mat toneSource;
    blurred(grey, toneSource, plan.tone_sigma);
    float tone[256], lightLog[256], restLog[256], strokeShare[256];
    for (int level = 0; level < 256; level++) {
        float t = std::min(1.0f, std::max(0.02f, plan.tone_table[level] / 255.0f));
        float light = std::max(t, plan.cross_below);
        tone[level] = t;
        lightLog[level] = std::log(light);
        restLog[level] = std::log(t / light);
        // In the photo's blacks the smudge takes over from the strokes (see PencilFilter); the
        // plan may give strokes more of it (a small face's).
        strokeShare[level] = std::min(1.0f, std::max(0.0f, level / (255 * 0.15f) - 0.05f / 0.15f)) * 0.35f + 0.25f;
        strokeShare[level] += (1 - strokeShare[level]) * plan.stroke_share;
    }
    // Even strokes: short strokes of mixed lengths in a face's half-lights read as stubble
    // (docs/look-panel.md, 2026-11-29: "a fake beard"). Turning with the forms, a tile per
    // slant the face uses, the second layer always across the first.
    if (plan.origin_x < 0 || plan.origin_y < 0) throw std::invalid_argument("pencil: the origin must not be negative");
    if (!(plan.hatch_follow >= 0)) throw std::invalid_argument("pencil: hatch_follow must not be negative");
    cv::Point origin(plan.origin_x, plan.origin_y);
    const bool turning = plan.hatch_follow > 0;
    HatchDirections directions;
    if (turning)
        directions = hatchDirections(grey, std::max(1.0f, plan.form_size), plan.hatch_follow, plan.hatch_angle,
                                     cv::Rect(int(plan.skin_x), int(plan.skin_y), int(plan.skin_width), int(plan.skin_height)), origin);
    else
        directions.used[0] = true;
    // The tiles of the slants the face uses. (Made one after another, on this thread: a tile is
    // never asked for from inside an OpenCV parallel loop, where a worker waiting for nested
    // work may run another loop's body, which could then wait for the very tile that worker is
    // making.)
    std::shared_ptr<const TextureTile> firsts[hatchSlants], seconds[hatchSlants];
    for (int k = 0; k < hatchSlants; k++) {
        if (!directions.used[k]) continue;
        const float turn = float(CV_PI) * k / hatchSlants;
        firsts[k] = textureTile(roundedSize(plan.hatch_length), roundedSize(plan.hatch_width), plan.hatch_angle + turn,
                                StrokeFamilies::even, unsigned(k));
        seconds[k] = textureTile(roundedSize(0.8f * plan.hatch_length), roundedSize(plan.hatch_width), plan.cross_angle + turn,
                                 StrokeFamilies::even, unsigned(k));
    }
    // Every slant's tiles are the same size (one stroke length and width).
    int used = 0;
    while (!directions.used[used]) used++;
    auto first = firsts[used], second = seconds[used];
    cv::Point firstAt = tileOffset(plan.seed, first->side) + origin, secondAt = tileOffset(plan.seed + 1, second->side) + origin;
    std::vector<int> firstColumn(width), secondColumn(width);
    for (int x = 0; x < width; x++) {
        firstColumn[x] = (x + firstAt.x) % first->side;
        secondColumn[x] = (x + secondAt.x) % second->side;
    }

    // The small forms' darks and lights (irises, nostrils, lips, teeth).
    const SpotDetail detail(grey, plan.detail);

    cv::Mat grain = paperGrain(NoiseWindow{plan.noise, plan.noise_side, plan.noise_x, plan.noise_y}, origin,
                               plan.grain_size, width, height);

    // The tiles as plain pointers: the drawing's bytes written below could alias a tile's, as
    // far as the compiler knows, and it would read each one's pointers again every pixel.
    const unsigned char *firstLevels[hatchSlants] = {}, *secondLevels[hatchSlants] = {};
    const float *firstExponents[hatchSlants] = {}, *secondExponents[hatchSlants] = {};
    // (A slant no pixel takes, but as the next one with none of it, points at a tile any pixel
    // could take: 0 x its exponent.)
    for (int k = 0; k < hatchSlants; k++) {
        const TextureTile &one = *(firsts[k] ? firsts[k] : first), &two = *(seconds[k] ? seconds[k] : second);
        firstLevels[k] = one.level.data(), firstExponents[k] = one.exponentOf;
        secondLevels[k] = two.level.data(), secondExponents[k] = two.exponentOf;
    }
    std::vector<unsigned char> slantRow(turning ? width : 0);
    std::vector<unsigned char> towardRow(turning ? width : 0);
    float shareOf[256];
    for (int i = 0; i < 256; i++) shareOf[i] = i / 255.0f;

    for (int y = 0; y < height; y++) {
        const unsigned char *level = toneSource.ptr<unsigned char>(y);
        const float *line = lines.ptr<float>(y), *grainRow = grain.ptr<float>(y);
        const size_t row1 = size_t((y + firstAt.y) % first->side) * first->side;
        const size_t row2 = size_t((y + secondAt.y) % second->side) * second->side;
        if (turning) directions.fill(y, slantRow.data(), towardRow.data());
        const unsigned char *spot = detail.spots(y), *around = detail.surroundings(y), *taken = detail.shares(y);
        unsigned char *out = outRGB + size_t(y) * width * 3;
        for (int x = 0; x < width; x++) {
            int l = level[x];
            const size_t at1 = row1 + firstColumn[x], at2 = row2 + secondColumn[x];
            float e1, e2;
            if (lightLog[l] == 0 && restLog[l] == 0) {
                // Paper: no strokes, whatever their slant (t^e is 1 for t = 1).
                e1 = e2 = 0;
            } else if (turning) {
                // Between two slants' strokes: their exponents blended (each tile's mean is 1,
                // so the blend lays in the same tone).
                const int k = slantRow[x], next = (k + 1) % hatchSlants;
                const float on = shareOf[towardRow[x]];
                e1 = firstExponents[k][firstLevels[k][at1]];
                e2 = secondExponents[k][secondLevels[k][at2]];
                e1 += (firstExponents[next][firstLevels[next][at1]] - e1) * on;
                e2 += (secondExponents[next][secondLevels[next][at2]] - e2) * on;
            } else {
                e1 = firstExponents[used][firstLevels[used][at1]];
                e2 = secondExponents[used][secondLevels[used][at2]];
            }
            // Both layers of strokes: the light tones in the first, the rest across it.
            float hatch = std::exp(e1 * lightLog[l] + e2 * restLog[l]);
            float hatched = tone[l] + (hatch - tone[l]) * strokeShare[l];
            // The paper a little below white, so its grain is not clipped away.
            float v = line[x] * hatched * (0.97f - plan.grain_strength * grainRow[x]);
            if (spot) v = std::min(0.97f, v * (taken ? detail.factor(spot[x], around[x], taken[x]) : detail.factor(spot[x], around[x])));
            unsigned char g = cv::saturate_cast<unsigned char>(255 * v);
            out[3 * x] = out[3 * x + 1] = out[3 * x + 2] = g;
        }
    }
}

/// The box holding every face (whole pixels, as the styles' `FaceRegion.bounds` gives it to
/// `sk_pencil_strokes`); empty without faces.
cv::Rect facesBounds(const sk_face_seed *faces, int count) {
    if (!faces || count <= 0) return cv::Rect();
    float x0 = faces[0].x, y0 = faces[0].y, x1 = faces[0].x + faces[0].width, y1 = faces[0].y + faces[0].height;
    for (int i = 1; i < count; i++) {
        x0 = std::min(x0, faces[i].x); y0 = std::min(y0, faces[i].y);
        x1 = std::max(x1, faces[i].x + faces[i].width); y1 = std::max(y1, faces[i].y + faces[i].height);
    }
    return cv::Rect(int(x0), int(y0), int(x1 - x0), int(y1 - y0));
}

/// Lu, Xu & Jia's tone: each grey level to the level with the same cumulative share under the
/// pencil distribution (`cdf`, 256 rising shares), the counts pooled over the faces' boxes
/// (the whole image where none holds 2 x 2 pixels).
std::vector<unsigned char> toneTable(const cv::Mat &levels, const sk_face_seed *faces, int count, const double *cdf) {
    std::vector<double> counts(256, 0);
    auto add = [&](cv::Rect r) {
        for (int y = r.y; y < r.y + r.height; y++) {
            const unsigned char *row = levels.ptr<unsigned char>(y);
            for (int x = r.x; x < r.x + r.width; x++) counts[row[x]] += 1;
        }
    };
    for (int i = 0; i < count && faces; i++) {
        int x0 = std::max(0, int(faces[i].x)), y0 = std::max(0, int(faces[i].y));
        int x1 = std::min(levels.cols, int(faces[i].x + faces[i].width)), y1 = std::min(levels.rows, int(faces[i].y + faces[i].height));
        if (x1 - x0 >= 2 && y1 - y0 >= 2) add(cv::Rect(x0, y0, x1 - x0, y1 - y0));
    }
    double total = 0;
    for (double c : counts) total += c;
    if (total == 0) {
        add(cv::Rect(0, 0, levels.cols, levels.rows));
        for (double c : counts) total += c;
    }
    std::vector<unsigned char> table(256);
    double cumulative = 0;
    for (int level = 0; level < 256; level++) {
        // The level's middle share, so a level holding every pixel maps to the middle.
        double share = (cumulative + counts[level] / 2) / std::max(1.0, total);
        cumulative += counts[level];
        int target = 0;
        while (target < 255 && cdf[target] < share) target++;
        table[level] = (unsigned char)target;
    }
    return table;
}

void graphite(const unsigned char *rgb, int width, int height, const sk_graphite_plan &plan, unsigned char *outRGB) {
    checkImage(rgb, width, height);
    if (!plan.tone_cdf) throw std::invalid_argument("graphite: the tone distribution is required");
    if (plan.origin_x < 0 || plan.origin_y < 0) throw std::invalid_argument("graphite: the origin must not be negative");
    cv::Mat grey, lineSource, toneSource;
    blurred(greyOf(rgb, width, height), grey, plan.grey_sigma);

    // Outlines: the stroke map, its edge threshold and darkest strokes the faces' own.
    blurred(grey, lineSource, plan.line_sigma);
    cv::Mat lineGrey, strokes(height, width, CV_8U);
    lineSource.convertTo(lineGrey, CV_32F, 1.0 / 255);
    pencilStrokes(lineGrey, plan.stroke_length, plan.stroke_width, plan.stroke_gain, strokes.data,
                  facesBounds(plan.faces, plan.face_count));

    // Tone: the grey matched to a pencil drawing's tones over the faces.
    blurred(grey, toneSource, plan.tone_sigma);
    std::vector<unsigned char> table = toneTable(toneSource, plan.faces, plan.face_count, plan.tone_cdf);
    float logTone[256];
    for (int level = 0; level < 256; level++) logTone[level] = std::log(std::min(1.0f, std::max(0.03f, table[level] / 255.0f)));

    // Laid in with the texture: each area the power of it that reaches its tone there, solved
    // smoothly in the log domain (beta = blur(ln H ln J) / blur(ln H ln H)).
    auto tile = textureTile(roundedSize(plan.texture_length), roundedSize(plan.texture_width), plan.texture_angle,
                            StrokeFamilies::varied);
    const cv::Point at = tileOffset(plan.seed, tile->side) + cv::Point(plan.origin_x, plan.origin_y);
    cv::Mat lnH(height, width, CV_32F), product(height, width, CV_32F), square(height, width, CV_32F);
    for (int y = 0; y < height; y++) {
        const size_t row = size_t((y + at.y) % tile->side) * tile->side;
        const unsigned char *level = toneSource.ptr<unsigned char>(y);
        float *h = lnH.ptr<float>(y), *p = product.ptr<float>(y), *q = square.ptr<float>(y);
        for (int x = 0; x < width; x++) {
            h[x] = tile->exponent(row + (x + at.x) % tile->side) * tile->meanLog;
            p[x] = h[x] * logTone[level[x]];
            q[x] = h[x] * h[x];
        }
    }
    blurred(product, product, plan.reach);
    blurred(square, square, plan.reach);
    // The small forms' darks and lights (irises, nostrils, lips, teeth).
    const SpotDetail detail(grey, plan.detail);
    for (int y = 0; y < height; y++) {
        const float *h = lnH.ptr<float>(y), *p = product.ptr<float>(y), *q = square.ptr<float>(y);
        const unsigned char *s = strokes.ptr<unsigned char>(y);
        const unsigned char *spot = detail.spots(y), *around = detail.surroundings(y);
        unsigned char *out = outRGB + size_t(y) * width * 3;
        for (int x = 0; x < width; x++) {
            float textured = std::exp(p[x] / q[x] * h[x]);
            float v = unitClamp(s[x] / 255.0f * textured);
            if (spot) v = std::min(1.0f, v * detail.factor(spot[x], around[x]));
            unsigned char g = (unsigned char)(255 * v);
            out[3 * x] = out[3 * x + 1] = out[3 * x + 2] = g;
        }
    }
}

} // namespace

extern "C" int sk_graphite(const unsigned char *rgb, int width, int height, const sk_graphite_plan *plan,
                           unsigned char *out, char *error, int error_size) {
    return guarded(error, error_size, [&] {
        if (!plan) throw std::invalid_argument("graphite: no plan");
        graphite(rgb, width, height, *plan, out);
    });
}

extern "C" int sk_pencil_strokes(const unsigned char *grey, int width, int height, float length, float width_px,
                                 float gain, int skin_x, int skin_y, int skin_width, int skin_height,
                                 unsigned char *out, char *error, int error_size) {
    return guarded(error, error_size, [&] {
        pencilStrokes(grey, width, height, length, width_px, gain, cv::Rect(skin_x, skin_y, skin_width, skin_height), out);
    });
}

extern "C" int sk_pencil_texture(int width, int height, float length, float width_px, float angle, unsigned seed,
                                 unsigned char *out, char *error, int error_size) {
    return guarded(error, error_size, [&] { pencilTexture(width, height, length, width_px, angle, seed, out, StrokeFamilies::varied, seed); });
}

extern "C" int sk_pencil(const unsigned char *rgb, int width, int height, const sk_pencil_plan *plan,
                         unsigned char *out, char *error, int error_size) {
    return guarded(error, error_size, [&] {
        if (!plan) throw std::invalid_argument("pencil: no plan");
        pencil(rgb, width, height, *plan, out);
    });
}
