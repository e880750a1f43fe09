// OpenCV face detection behind the C interface declared in include/sk_facedetect.h.
//
// Only OpenCV's core, imgproc, objdetect and dnn modules are used. Every entry point catches
// every exception, so nothing propagates into Swift.
//
// OpenCV's thread count is never changed here (no cv::setNumThreads): with Debian's TBB build it
// terminates and rebuilds the process-wide task arena, and a worker thread inside a parallel_for_
// at that moment dereferences a freed arena (a segfault in libtbb, seen at the end of batches
// whose first worker finished while another was still detecting). OpenCV runs one parallel loop
// at a time in the process (nested or concurrent loops run serially), so several photos in
// flight do not multiply its threads anyway.
#include "sk_facedetect.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// ---------------------------------------------------------------------------------------
// Error reporting

// Writes `text` into the caller's buffer, always NUL-terminated, truncated if needed.
void put_message(char *err, size_t err_len, const char *text, size_t len) noexcept {
    if (!err || err_len == 0) return;
    const size_t n = std::min(len, err_len - 1);
    if (n) std::memcpy(err, text, n);
    err[n] = '\0';
}
void put_message(char *err, size_t err_len, const char *text) noexcept { put_message(err, err_len, text, std::strlen(text)); }
void put_message(char *err, size_t err_len, const std::string &text) noexcept { put_message(err, err_len, text.data(), text.size()); }

// The first non-blank line of `text`, trimmed.
std::string first_line(const std::string &text) {
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        size_t a = pos, b = end;
        while (a < b && std::isspace(static_cast<unsigned char>(text[a]))) ++a;
        while (b > a && std::isspace(static_cast<unsigned char>(text[b - 1]))) --b;
        if (a < b) return text.substr(a, b - a);
        pos = end + 1;
    }
    return std::string();
}

// An OpenCV exception condensed to its message proper: what() reads
// "OpenCV(4.6.0) /path/file.cpp:123: error: (-2:Unspecified error) <message> in function 'f'",
// while Exception::err holds just "<message>". OpenCV's XML/YAML parser swaps the two fields
// (err = "parseValue", func = "file.xml(2): Invalid input"), so take func for parse errors.
std::string describe(const cv::Exception &e) {
    std::string text;
    if (e.code == cv::Error::StsParseError && e.func.find(": ") != std::string::npos)
        text = "parse error at " + first_line(e.func);
    if (text.empty()) text = first_line(e.err);
    if (text.empty()) text = first_line(e.what());
    if (text.empty()) text = "OpenCV error " + std::to_string(e.code);
    return text;
}

// Runs `body(context)`. Any exception becomes "<context>: <reason>" in err, where `context`
// is whatever the body last stored there (it says which step failed). False when one was thrown.
template <typename Body>
bool guarded(char *err, size_t err_len, Body &&body) noexcept {
    std::string context;
    try {
        body(context);
        return true;
    } catch (...) {
        try {
            std::string reason;
            try {
                throw;
            } catch (const cv::Exception &e) {
                reason = describe(e);
            } catch (const std::bad_alloc &) {
                reason = "out of memory";
            } catch (const std::exception &e) {
                reason = first_line(e.what());
            } catch (...) {
            }
            if (reason.empty()) reason = "unknown error";
            put_message(err, err_len, context.empty() ? reason : context + ": " + reason);
        } catch (...) {
            put_message(err, err_len, "face detection: out of memory while reporting an error");
        }
    }
    return false;
}

// Reads a whole file; throws std::runtime_error carrying the OS reason on failure.
std::vector<uchar> read_file(const char *path) {
    std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path, "rb"), &std::fclose);
    if (!file) throw std::runtime_error(std::strerror(errno));
    std::vector<uchar> bytes;
    std::vector<uchar> chunk(1 << 16);
    for (;;) {
        errno = 0;
        const size_t n = std::fread(chunk.data(), 1, chunk.size(), file.get());
        bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(n));
        if (n < chunk.size()) break;
    }
    if (std::ferror(file.get())) throw std::runtime_error(std::strerror(errno ? errno : EIO));
    if (bytes.empty()) throw std::runtime_error("the file is empty");
    return bytes;
}

// ---------------------------------------------------------------------------------------
// Detectors

struct Face {
    cv::Rect2f box;
    float score;
    float landmarks[10];
};

// Higher score first; the larger box breaks ties.
bool better(const Face &a, const Face &b) {
    if (a.score != b.score) return a.score > b.score;
    return a.box.area() > b.box.area();
}

float iou(const cv::Rect2f &a, const cv::Rect2f &b) {
    const float inter = (a & b).area();
    const float uni = a.area() + b.area() - inter;
    return uni > 0 ? inter / uni : 0.f;
}

class Detector {
public:
    virtual ~Detector() = default;
    virtual bool has_landmarks() const = 0;
    // Faces in `rgb` (CV_8UC3, R,G,B order), best first, run at (at least) net_width x
    // net_height (0: the image's own size).
    virtual std::vector<Face> detect(const cv::Mat &rgb, float threshold, float nms_iou, int net_width, int net_height) = 0;
    // Frees working memory kept between runs.
    virtual void release() {}
    // The input size of the network kept from the last run (0 x 0: none).
    virtual cv::Size network_size() const { return cv::Size(); }
};

// CenterFace through OpenCV DNN.
//
// The network maps a 1x3xHxW float blob of raw 0..255 RGB values (H, W multiples of 32) to
// four maps at a quarter of the resolution: "537" heatmap (1 channel), "538" log box size
// (height, width), "539" sub-cell centre offset (y, x), "540" five landmarks (y, x pairs)
// relative to the box's top-left corner, in units of the box size.
//
// OpenCV 4.6 trap: with layer fusion on (the default), a Net that has run one input size
// gives wrong output after the input size changes (re-initialising for the new shape appears
// to fuse batch-norm into the convolutions a second time). So a Net only ever sees one input
// size: the detector keeps the Net of the size it ran last and reuses it for the next input
// of that size (the tiles of a photo are all one size), and builds a fresh one from the model
// bytes parsed into memory at open time when the size changes (~10 ms to build plus ~25 ms of
// first-run set-up). sk_detector_release_networks hands the Net's working memory (~65 MB at
// 640x640, ~230 MB per megapixel at larger sizes) back between photos.
class CenterFace final : public Detector {
public:
    explicit CenterFace(std::vector<uchar> model) : model_(std::move(model)) {
        // Parsing proves the file is an ONNX network; the four named outputs prove it is
        // CenterFace. (Shapes are checked on every run.)
        cv::dnn::Net net = parse();
        for (const char *name : kOutputs) {
            if (net.getLayerId(name) < 0)
                throw std::runtime_error(std::string("the network has no output '") + name + "': not CenterFace");
        }
        spare_ = std::move(net); // never run: the first detection may use it
    }

    bool has_landmarks() const override { return true; }

    std::vector<Face> detect(const cv::Mat &rgb, float threshold, float nms_iou, int net_width, int net_height) override {
        const int W = std::max(pad32(rgb.cols), pad32(net_width)), H = std::max(pad32(rgb.rows), pad32(net_height));
        std::vector<cv::Mat> outs = forward(rgb, W, H);
        check_outputs(outs, W, H);
        std::vector<Face> faces = decode(outs, threshold, rgb.cols, rgb.rows);
        return suppress(std::move(faces), nms_iou);
    }

    void release() override {
        net_ = cv::dnn::Net();
        net_width_ = net_height_ = 0;
    }

    cv::Size network_size() const override { return cv::Size(net_width_, net_height_); }

    // The most pixels (after padding) accepted: working memory grows ~230 MB per megapixel.
    static constexpr double kMaxPixels = 4096.0 * 4096.0;
    static int pad32(int n) { return (n + 31) / 32 * 32; }

private:
    const std::vector<uchar> model_;
    cv::dnn::Net spare_; // parsed, never run: any size may use it
    cv::dnn::Net net_;   // has run at net_width_ x net_height_ only
    int net_width_ = 0, net_height_ = 0;
    static constexpr const char *kOutputs[4] = {"537", "538", "539", "540"}; // heatmap, scale, offset, landmarks
    static constexpr size_t kMaxCandidates = 4000; // heatmap peaks kept before NMS

    cv::dnn::Net parse() const {
        cv::dnn::Net net = cv::dnn::readNetFromONNX(model_);
        if (net.empty()) throw std::runtime_error("the model holds no network");
        net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        return net;
    }

    // Runs the network on `rgb` padded with black at the bottom/right to W x H (never
    // stretched, so boxes map back unchanged).
    std::vector<cv::Mat> forward(const cv::Mat &rgb, int W, int H) {
        if (net_.empty() || net_width_ != W || net_height_ != H) {
            net_ = cv::dnn::Net(); // its memory goes before the next one's is taken
            net_ = spare_.empty() ? parse() : std::move(spare_);
            spare_ = cv::dnn::Net();
            net_width_ = W;
            net_height_ = H;
        }
        cv::Mat padded(H, W, CV_8UC3, cv::Scalar::all(0));
        rgb.copyTo(padded(cv::Rect(0, 0, rgb.cols, rgb.rows)));
        const cv::Mat blob = cv::dnn::blobFromImage(padded, 1.0, cv::Size(), cv::Scalar(), false, false, CV_32F);
        net_.setInput(blob);
        std::vector<cv::Mat> outs;
        net_.forward(outs, std::vector<cv::String>(std::begin(kOutputs), std::end(kOutputs)));
        // Outputs alias the Net's buffers, which the next run overwrites: copy them out.
        for (auto &m : outs) m = m.clone();
        return outs;
    }

    static void check_outputs(const std::vector<cv::Mat> &outs, int W, int H) {
        static const int channels[4] = {1, 2, 2, 10};
        bool ok = outs.size() == 4;
        for (size_t i = 0; ok && i < 4; ++i) {
            const cv::Mat &m = outs[i];
            ok = m.dims == 4 && m.type() == CV_32F && m.isContinuous() && m.size[0] == 1 &&
                 m.size[1] == channels[i] && m.size[2] == H / 4 && m.size[3] == W / 4;
        }
        if (!ok) throw std::runtime_error("the network's outputs are not CenterFace's (537..540 with 1/2/2/10 channels at 1/4 scale)");
    }

    // Every heatmap cell above `threshold` becomes a box (see the class comment).
    static std::vector<Face> decode(const std::vector<cv::Mat> &outs, float threshold, int width, int height) {
        const cv::Mat &heat = outs[0], &scale = outs[1], &offset = outs[2], &marks = outs[3];
        const int rows = heat.size[2], cols = heat.size[3];
        const size_t plane = static_cast<size_t>(rows) * static_cast<size_t>(cols);
        const float *h = heat.ptr<float>(), *s = scale.ptr<float>(), *o = offset.ptr<float>(), *m = marks.ptr<float>();
        const float W = static_cast<float>(width), H = static_cast<float>(height);

        std::vector<size_t> cells;
        for (size_t i = 0; i < plane; ++i)
            if (h[i] > threshold) cells.push_back(i);
        if (cells.size() > kMaxCandidates) {
            std::nth_element(cells.begin(), cells.begin() + kMaxCandidates, cells.end(),
                             [h](size_t a, size_t b) { return h[a] > h[b]; });
            cells.resize(kMaxCandidates);
        }

        std::vector<Face> faces;
        faces.reserve(cells.size());
        for (size_t i : cells) {
            const float row = static_cast<float>(i / static_cast<size_t>(cols));
            const float col = static_cast<float>(i % static_cast<size_t>(cols));
            const float bh = std::exp(s[i]) * 4.f, bw = std::exp(s[plane + i]) * 4.f;
            const float x0 = std::min(std::max(0.f, (col + o[plane + i] + 0.5f) * 4.f - bw / 2.f), W);
            const float y0 = std::min(std::max(0.f, (row + o[i] + 0.5f) * 4.f - bh / 2.f), H);
            const float x1 = std::min(x0 + bw, W), y1 = std::min(y0 + bh, H);
            if (!(x1 > x0 && y1 > y0)) continue; // empty, or NaN from a broken model
            Face f;
            f.box = cv::Rect2f(x0, y0, x1 - x0, y1 - y0);
            f.score = h[i];
            for (size_t j = 0; j < 5; ++j) {
                f.landmarks[2 * j] = m[(2 * j + 1) * plane + i] * bw + x0;
                f.landmarks[2 * j + 1] = m[(2 * j) * plane + i] * bh + y0;
            }
            faces.push_back(f);
        }
        return faces;
    }

    // Greedy non-maximum suppression: best first, drop boxes overlapping a kept one by IoU > limit.
    static std::vector<Face> suppress(std::vector<Face> faces, float limit) {
        std::sort(faces.begin(), faces.end(), better);
        std::vector<Face> kept;
        for (const Face &f : faces) {
            const bool overlaps = std::any_of(kept.begin(), kept.end(),
                                              [&](const Face &k) { return iou(k.box, f.box) > limit; });
            if (!overlaps) kept.push_back(f);
        }
        return kept;
    }
};

// Viola-Jones (Haar or LBP) cascade. It gives no confidence: its boxes are returned largest
// first with a score of 0 (see sk_face.score).
class Cascade final : public Detector {
public:
    explicit Cascade(const char *path) {
        if (!classifier_.load(path) || classifier_.empty())
            throw std::runtime_error("not an OpenCV cascade classifier file");
    }

    bool has_landmarks() const override { return false; }

    std::vector<Face> detect(const cv::Mat &rgb, float, float, int, int) override {
        cv::Mat grey;
        cv::cvtColor(rgb, grey, cv::COLOR_RGB2GRAY);
        cv::equalizeHist(grey, grey);
        const int smallest = std::max(24, std::min(grey.cols, grey.rows) * 3 / 100);
        std::vector<cv::Rect> rects;
        classifier_.detectMultiScale(grey, rects, 1.1, 5, 0, cv::Size(smallest, smallest));
        std::vector<Face> faces;
        for (const cv::Rect &r : rects) {
            Face f{};
            f.box = cv::Rect2f(r);
            f.score = 0.f;
            faces.push_back(f);
        }
        std::sort(faces.begin(), faces.end(), better);
        return faces;
    }

private:
    cv::CascadeClassifier classifier_;
};

} // namespace

struct sk_detector {
    std::unique_ptr<Detector> impl;
    std::mutex lock; // serialises runs: neither cv::dnn::Net nor CascadeClassifier is reentrant
};

extern "C" {

sk_detector *sk_detector_open_centerface(const char *onnx_path, char *err, size_t err_len) {
    put_message(err, err_len, "");
    if (!onnx_path || !*onnx_path) {
        put_message(err, err_len, "cannot open CenterFace: no model path given");
        return nullptr;
    }
    sk_detector *result = nullptr;
    guarded(err, err_len, [&](std::string &context) {
        context = std::string("cannot read ONNX model '") + onnx_path + "'";
        const std::vector<uchar> model = read_file(onnx_path);
        context = std::string("cannot load ONNX model '") + onnx_path + "'";
        std::unique_ptr<sk_detector> d(new sk_detector);
        d->impl.reset(new CenterFace(model));
        result = d.release();
    });
    return result;
}

sk_detector *sk_detector_open_cascade(const char *cascade_xml_path, char *err, size_t err_len) {
    put_message(err, err_len, "");
    if (!cascade_xml_path || !*cascade_xml_path) {
        put_message(err, err_len, "cannot open cascade: no cascade path given");
        return nullptr;
    }
    sk_detector *result = nullptr;
    guarded(err, err_len, [&](std::string &context) {
        context = std::string("cannot load cascade '") + cascade_xml_path + "'";
        // Check readability first: CascadeClassifier::load only answers false.
        std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(cascade_xml_path, "rb"), &std::fclose);
        if (!file) throw std::runtime_error(std::strerror(errno));
        file.reset();
        std::unique_ptr<sk_detector> d(new sk_detector);
        d->impl.reset(new Cascade(cascade_xml_path));
        result = d.release();
    });
    return result;
}

void sk_detector_close(sk_detector *d) {
    try {
        delete d;
    } catch (...) {
        // The OpenCV objects' destructors do not throw; nothing may escape regardless.
    }
}

void sk_detector_release_networks(sk_detector *d) {
    if (!d || !d->impl) return;
    try {
        std::lock_guard<std::mutex> guard(d->lock);
        d->impl->release();
    } catch (...) {
    }
}

void sk_detector_network_size(sk_detector *d, int *width, int *height) {
    cv::Size size;
    if (d && d->impl) {
        try {
            std::lock_guard<std::mutex> guard(d->lock);
            size = d->impl->network_size();
        } catch (...) {
        }
    }
    if (width) *width = size.width;
    if (height) *height = size.height;
}

int sk_detector_run(sk_detector *d, const uint8_t *rgb, int width, int height, size_t stride,
                    int net_width, int net_height, float threshold, float nms_iou, sk_face *out,
                    int capacity, int *found, char *err, size_t err_len) {
    if (found) *found = 0;
    put_message(err, err_len, "");
    const char *problem = nullptr;
    if (!d || !d->impl) problem = "no detector";
    else if (!rgb) problem = "no pixels (rgb is NULL)";
    else if (width <= 0 || height <= 0) problem = "image width and height must be positive";
    else if (stride < static_cast<size_t>(width) * 3) problem = "stride is smaller than 3 * width";
    else if (capacity < 0) problem = "capacity is negative";
    else if (net_width < 0 || net_height < 0 || net_width > 16384 || net_height > 16384) problem = "network size out of range";
    else if (!out && capacity > 0) problem = "no output array (out is NULL)";
    else if (d->impl->has_landmarks()) {
        if (std::isnan(threshold)) problem = "threshold is NaN";
        else if (!(nms_iou >= 0.f && nms_iou <= 1.f)) problem = "nms_iou must be within 0..1";
        else if (static_cast<double>(CenterFace::pad32(std::max(width, net_width))) *
                     CenterFace::pad32(std::max(height, net_height)) > CenterFace::kMaxPixels)
            problem = "image too large for CenterFace (over 16 megapixels); downscale it first";
    }
    if (problem) {
        char text[160];
        std::snprintf(text, sizeof text, "face detection: %s", problem);
        put_message(err, err_len, text);
        return -1;
    }

    int written = -1;
    guarded(err, err_len, [&](std::string &context) {
        context = "face detection failed";
        const cv::Mat image(height, width, CV_8UC3, const_cast<uint8_t *>(rgb), stride);
        std::vector<Face> faces;
        {
            std::lock_guard<std::mutex> guard(d->lock);
            faces = d->impl->detect(image, threshold, nms_iou, net_width, net_height);
        }
        const int total = static_cast<int>(std::min<size_t>(faces.size(), size_t(1) << 30));
        const int n = std::min(capacity, total);
        const bool marks = d->impl->has_landmarks();
        for (int i = 0; i < n; ++i) {
            const Face &f = faces[static_cast<size_t>(i)];
            sk_face &o = out[i];
            o.x = f.box.x;
            o.y = f.box.y;
            o.width = f.box.width;
            o.height = f.box.height;
            o.score = f.score;
            o.has_landmarks = marks ? 1 : 0;
            for (int j = 0; j < 10; ++j) o.landmarks[j] = marks ? f.landmarks[j] : 0.f;
        }
        if (found) *found = total;
        written = n;
    });
    return written;
}

} // extern "C"
