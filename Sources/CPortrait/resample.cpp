// CPortrait's resampling: a face's crop enlarged or reduced to the size its style draws at, and
// the drawing brought back, over packed bytes (see sk_resample).
#include "sk_portrait.h"
#include "common.hpp"

#include <cfloat>

#include <opencv2/imgproc.hpp>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

/// One input pixel's share of an output pixel, along one axis (as OpenCV's INTER_AREA lays
/// them out: `output` and `input` are element offsets, the input's channels after it).
struct AreaTap {
    int output, input;
    float weight;
};

/// The taps of an area reduction from `from` to `to` pixels along an axis, `scale` input
/// pixels to an output pixel: each output pixel's share of the input pixels it covers, a
/// partly covered one at each end, in the order OpenCV's INTER_AREA sums them.
std::vector<AreaTap> areaTaps(int from, int to, int channels, double scale) {
    std::vector<AreaTap> taps;
    taps.reserve(size_t(from) * 2);
    for (int d = 0; d < to; d++) {
        double start = d * scale, end = start + scale;
        double cell = std::min(scale, from - start);
        int first = cvCeil(start), last = std::min(cvFloor(end), from - 1);
        first = std::min(first, last);
        if (first - start > 1e-3) taps.push_back({d * channels, (first - 1) * channels, float((first - start) / cell)});
        for (int s = first; s < last; s++) taps.push_back({d * channels, s * channels, float(1.0 / cell)});
        if (end - last > 1e-3) taps.push_back({d * channels, last * channels, float(std::min(std::min(end - last, 1.0), cell) / cell)});
    }
    return taps;
}

#if defined(__x86_64__)
/// The horizontal sums of one row group, `rows` input rows at once in the lanes of a vector
/// (sixteen rows of one channel, or four of three channels and a spare lane), each output
/// element's taps added in order from zero as OpenCV adds them: each lane's sum is the one
/// OpenCV computes for its row. `sums` gets them row after row, `outElements` each.
__attribute__((target("avx512f"))) void areaRowsSixteen(const cv::Mat &in, int row, int channels,
                                                          const std::vector<AreaTap> &taps, int outElements, float *sums) {
    const int rows = channels == 1 ? 16 : 4;
    const unsigned char *start[16];
    for (int r = 0; r < rows; r++) start[r] = in.ptr<unsigned char>(std::min(row + r, in.rows - 1));
    const int rowBytes = in.cols * channels;
    const int kept = std::min(rows, in.rows - row);
    alignas(64) float lanes[16];
    __m512 acc = _mm512_setzero_ps();
    for (size_t k = 0; k < taps.size(); k++) {
        const AreaTap &tap = taps[k];
        __m128i bytes;
        if (channels == 1) {
            alignas(16) unsigned char b[16];
            for (int r = 0; r < 16; r++) b[r] = start[r][tap.input];
            bytes = _mm_load_si128(reinterpret_cast<const __m128i *>(b));
        } else {
            alignas(16) uint32_t p[4];
            for (int r = 0; r < 4; r++) {
                const unsigned char *q = start[r] + tap.input;
                if (tap.input + 4 <= rowBytes) std::memcpy(&p[r], q, 4);
                else p[r] = uint32_t(q[0]) | uint32_t(q[1]) << 8 | uint32_t(q[2]) << 16;
            }
            bytes = _mm_load_si128(reinterpret_cast<const __m128i *>(p));
        }
        const __m512 values = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(bytes));
        acc = _mm512_add_ps(acc, _mm512_mul_ps(values, _mm512_set1_ps(tap.weight)));
        // The output element's last tap: its sums go out, and the next starts from zero.
        if (k + 1 == taps.size() || taps[k + 1].output != tap.output) {
            _mm512_store_ps(lanes, acc);
            for (int r = 0; r < kept; r++)
                for (int c = 0; c < channels; c++)
                    sums[size_t(r) * outElements + tap.output + c] = lanes[channels == 1 ? r : 4 * r + c];
            acc = _mm512_setzero_ps();
        }
    }
}
#endif

void resample(const unsigned char *in, int width, int height, int bands, int outWidth, int outHeight,
              unsigned char *out) {
    sk::checkImage(in, width, height);
    sk::checkImage(out, outWidth, outHeight);
    if (bands < 1 || bands > 4) throw std::invalid_argument("resample: 1 to 4 bands");
    const cv::Mat source(height, width, CV_8UC(bands), const_cast<unsigned char *>(in));
    cv::Mat target(outHeight, outWidth, CV_8UC(bands), out);
    // Reduced: each output pixel the mean of the input area it covers (anti-aliased, no
    // ringing). Enlarged: bicubic, so strokes keep their edges.
    const bool reduces = outWidth <= width && outHeight <= height;
    if (reduces) sk::reducedByArea(source, target, target.size());
    else cv::resize(source, target, target.size(), 0, 0, cv::INTER_CUBIC);
    if (target.data != out) throw std::logic_error("resample: the output was reallocated");
}

} // namespace

void sk::reducedByArea(const cv::Mat &in, cv::Mat &out, cv::Size size) {
    // OpenCV's own choices: the same size is a copy, whole-number scales its faster path, any
    // other type or an enlargement its code; the rest here, sixteen lanes at a time.
    const double scaleX = 1.0 / (double(size.width) / in.cols), scaleY = 1.0 / (double(size.height) / in.rows);
    const int wholeX = cv::saturate_cast<int>(scaleX), wholeY = cv::saturate_cast<int>(scaleY);
    const bool whole = std::abs(scaleX - wholeX) < DBL_EPSILON && std::abs(scaleY - wholeY) < DBL_EPSILON;
    const int channels = in.channels();
    if (!wideVectorInstructions() || in.depth() != CV_8U || (channels != 1 && channels != 3) || size == in.size() ||
        whole || scaleX < 1 || scaleY < 1 || size.width <= 0 || size.height <= 0 || in.empty()) {
        cv::resize(in, out, size, 0, 0, cv::INTER_AREA);
        return;
    }
#if defined(__x86_64__)
    const std::vector<AreaTap> across = areaTaps(in.cols, size.width, channels, scaleX);
    const std::vector<AreaTap> down = areaTaps(in.rows, size.height, 1, scaleY);
    const int elements = size.width * channels;
    // Every input row's horizontal sums (each row's are the same whichever output row takes
    // them), then each output row the weighted sum of its rows' in the taps' order.
    std::vector<float> sums(size_t(in.rows) * elements);
    const int group = channels == 1 ? 16 : 4;
    for (int row = 0; row < in.rows; row += group)
        areaRowsSixteen(in, row, channels, across, elements, sums.data() + size_t(row) * elements);
    // Into `out`'s own pixels where they fit and are not `in`'s (as cv::resize writes).
    const bool overlaps = out.data && out.datastart < in.dataend && in.datastart < out.dataend;
    cv::Mat result = !overlaps && out.size() == size && out.type() == in.type() ? out : cv::Mat(size, in.type());
    std::vector<float> total(elements);
    size_t t = 0;
    for (int y = 0; y < size.height; y++) {
        bool first = true;
        for (; t < down.size() && down[t].output == y; t++) {
            const float beta = down[t].weight, *row = sums.data() + size_t(down[t].input) * elements;
            if (first) for (int i = 0; i < elements; i++) total[i] = beta * row[i];
            else for (int i = 0; i < elements; i++) total[i] += beta * row[i];
            first = false;
        }
        unsigned char *o = result.ptr<unsigned char>(y);
        for (int i = 0; i < elements; i++) o[i] = cv::saturate_cast<unsigned char>(total[i]);
    }
    out = result;
#endif
}

extern "C" int sk_resample(const unsigned char *in, int width, int height, int bands, int out_width, int out_height,
                           unsigned char *out, char *error, int error_size) {
    return sk::guarded(error, error_size, [&] { resample(in, width, height, bands, out_width, out_height, out); });
}
