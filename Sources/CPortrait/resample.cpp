// CPortrait's resampling: a face's crop enlarged or reduced to the size its style draws at, and
// the drawing brought back, over packed bytes (see sk_resample).
#include "sk_portrait.h"
#include "common.hpp"

#include <opencv2/imgproc.hpp>

namespace {

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
    cv::resize(source, target, target.size(), 0, 0, reduces ? cv::INTER_AREA : cv::INTER_CUBIC);
    if (target.data != out) throw std::logic_error("resample: the output was reallocated");
}

} // namespace

extern "C" int sk_resample(const unsigned char *in, int width, int height, int bands, int out_width, int out_height,
                           unsigned char *out, char *error, int error_size) {
    return sk::guarded(error, error_size, [&] { resample(in, width, height, bands, out_width, out_height, out); });
}
