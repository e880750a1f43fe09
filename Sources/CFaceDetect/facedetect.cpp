// OpenCV face detection behind a C interface. See include/sk_facedetect.h.
#include "sk_facedetect.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <list>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace {

void set_error(char *err, size_t len, const std::string &message) {
    if (!err || len == 0) return;
    // OpenCV messages span lines ("OpenCV(4.6.0) file:line: error: (-2) ..."); keep one line.
    std::string line = message;
    std::replace(line.begin(), line.end(), '\n', ' ');
    std::snprintf(err, len, "%s", line.c_str());
}

std::string condense(const cv::Exception &e) {
    return e.err.empty() ? std::string(e.what()) : e.err;
}

struct Candidate {
    cv::Rect2f box;
    float score;
    float landmarks[10];
};

float iou(const cv::Rect2f &a, const cv::Rect2f &b) {
    float inter = (a & b).area();
    float uni = a.area() + b.area() - inter;
    return uni > 0 ? inter / uni : 0.f;
}

// Greedy non-maximum suppression; `items` ends sorted by score, suppressed ones removed.
void suppress(std::vector<Candidate> &items, float threshold) {
    std::sort(items.begin(), items.end(), [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
    std::vector<Candidate> kept;
    for (const auto &c : items) {
        bool overlaps = std::any_of(kept.begin(), kept.end(),
                                    [&](const Candidate &k) { return iou(k.box, c.box) >= threshold; });
        if (!overlaps) kept.push_back(c);
    }
    items.swap(kept);
}

class Detector {
public:
    virtual ~Detector() = default;
    virtual std::vector<Candidate> run(const cv::Mat &rgb, float threshold, float nms_iou) = 0;
};

// CenterFace (MIT) through OpenCV DNN.
//
// OpenCV 4.6 trap: a Net that has run one input size returns wrong output for another size.
// Each padded input size therefore gets its own Net, built from the model bytes read once; a
// few sizes are kept, least recently used dropped first.
class CenterFace final : public Detector {
public:
    explicit CenterFace(const std::string &path) {
        std::ifstream file(path, std::ios::binary);
        if (!file) throw std::runtime_error("cannot read model '" + path + "': " + std::strerror(errno));
        model_.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
        if (model_.empty()) throw std::runtime_error("model '" + path + "' is empty");
        try {
            net_for(cv::Size(32, 32)); // parse now, so a broken model fails at open time
        } catch (const cv::Exception &e) {
            throw std::runtime_error("cannot load CenterFace model '" + path + "': " + condense(e));
        }
    }

    std::vector<Candidate> run(const cv::Mat &rgb, float threshold, float nms_iou) override {
        // Pad (not stretch) to multiples of 32 so boxes map back unchanged.
        const int W = (rgb.cols + 31) / 32 * 32, H = (rgb.rows + 31) / 32 * 32;
        cv::Mat padded;
        cv::copyMakeBorder(rgb, padded, 0, H - rgb.rows, 0, W - rgb.cols, cv::BORDER_CONSTANT, cv::Scalar::all(0));
        cv::Mat blob = cv::dnn::blobFromImage(padded, 1.0, cv::Size(), cv::Scalar(), false, false, CV_32F);
        cv::dnn::Net &net = net_for(cv::Size(W, H));
        net.setInput(blob);
        std::vector<cv::Mat> outs;
        net.forward(outs, std::vector<cv::String>{"537", "538", "539", "540"});
        auto found = decode(outs, threshold, rgb.cols, rgb.rows);
        suppress(found, nms_iou);
        return found;
    }

private:
    std::vector<uchar> model_;
    std::list<std::pair<cv::Size, cv::dnn::Net>> nets_; // most recently used first
    static constexpr size_t kMaxNets = 4;

    cv::dnn::Net &net_for(cv::Size size) {
        auto same = [&](const auto &entry) { return entry.first == size; };
        auto it = std::find_if(nets_.begin(), nets_.end(), same);
        if (it != nets_.end()) {
            nets_.splice(nets_.begin(), nets_, it);
        } else {
            cv::dnn::Net net = cv::dnn::readNetFromONNX(model_);
            net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
            net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
            nets_.emplace_front(size, std::move(net));
            if (nets_.size() > kMaxNets) nets_.pop_back();
        }
        return nets_.front().second;
    }

    // Heatmap peaks above threshold become boxes: scale gives the size (log, in units of the
    // 4-pixel output stride), offset the sub-cell centre, landmarks are relative to the box.
    static std::vector<Candidate> decode(const std::vector<cv::Mat> &outs, float threshold, int width, int height) {
        const cv::Mat &heat = outs[0], &scale = outs[1], &offset = outs[2], &marks = outs[3];
        const int rows = heat.size[2], cols = heat.size[3];
        const size_t plane = static_cast<size_t>(rows) * cols;
        const float *h = heat.ptr<float>(), *s = scale.ptr<float>(), *o = offset.ptr<float>(), *m = marks.ptr<float>();
        std::vector<Candidate> found;
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < cols; ++c) {
                const size_t i = static_cast<size_t>(r) * cols + c;
                if (h[i] <= threshold) continue;
                const float bh = std::exp(s[i]) * 4, bw = std::exp(s[plane + i]) * 4;
                const float oy = o[i], ox = o[plane + i];
                float x0 = std::max(0.f, (c + ox + 0.5f) * 4 - bw / 2);
                float y0 = std::max(0.f, (r + oy + 0.5f) * 4 - bh / 2);
                x0 = std::min(x0, float(width));
                y0 = std::min(y0, float(height));
                const float x1 = std::min(x0 + bw, float(width)), y1 = std::min(y0 + bh, float(height));
                Candidate cand{cv::Rect2f(x0, y0, x1 - x0, y1 - y0), h[i], {}};
                for (int j = 0; j < 5; ++j) {
                    cand.landmarks[2 * j] = m[(2 * j + 1) * plane + i] * bw + x0;
                    cand.landmarks[2 * j + 1] = m[(2 * j) * plane + i] * bh + y0;
                }
                if (cand.box.width > 1 && cand.box.height > 1) found.push_back(cand);
            }
        }
        return found;
    }
};

// Viola-Jones cascade from opencv-data: the fallback when the model is missing.
class Cascade final : public Detector {
public:
    explicit Cascade(const std::string &path) {
        bool loaded = false;
        try {
            loaded = classifier_.load(path);
        } catch (const cv::Exception &e) {
            throw std::runtime_error("cannot load cascade '" + path + "': " + condense(e));
        }
        if (!loaded || classifier_.empty()) throw std::runtime_error("cannot load cascade '" + path + "'");
    }

    std::vector<Candidate> run(const cv::Mat &rgb, float, float) override {
        cv::Mat grey;
        cv::cvtColor(rgb, grey, cv::COLOR_RGB2GRAY);
        cv::equalizeHist(grey, grey);
        const int smallest = std::max(24, std::min(grey.cols, grey.rows) * 3 / 100);
        std::vector<cv::Rect> rects;
        classifier_.detectMultiScale(grey, rects, 1.1, 5, 0, cv::Size(smallest, smallest));
        std::vector<Candidate> found;
        for (const auto &r : rects) found.push_back(Candidate{cv::Rect2f(r), 1.f, {}});
        std::sort(found.begin(), found.end(),
                  [](const Candidate &a, const Candidate &b) { return a.box.area() > b.box.area(); });
        return found;
    }

private:
    cv::CascadeClassifier classifier_;
};

} // namespace

struct sk_detector {
    std::unique_ptr<Detector> impl;
    bool landmarks;
    std::mutex lock;
};

extern "C" {

sk_detector *sk_detector_open_centerface(const char *path, char *err, size_t err_len) {
    if (!path) { set_error(err, err_len, "no model path given"); return nullptr; }
    try {
        auto d = new sk_detector{std::make_unique<CenterFace>(path), true, {}};
        return d;
    } catch (const std::exception &e) {
        set_error(err, err_len, e.what());
    } catch (...) {
        set_error(err, err_len, std::string("unknown error opening model '") + path + "'");
    }
    return nullptr;
}

sk_detector *sk_detector_open_cascade(const char *path, char *err, size_t err_len) {
    if (!path) { set_error(err, err_len, "no cascade path given"); return nullptr; }
    try {
        return new sk_detector{std::make_unique<Cascade>(path), false, {}};
    } catch (const std::exception &e) {
        set_error(err, err_len, e.what());
    } catch (...) {
        set_error(err, err_len, std::string("unknown error opening cascade '") + path + "'");
    }
    return nullptr;
}

void sk_detector_close(sk_detector *detector) { delete detector; }

int sk_detector_run(sk_detector *detector, const uint8_t *rgb, int width, int height, size_t stride,
                    float threshold, float nms_iou, sk_face *out, int capacity, int *found,
                    char *err, size_t err_len) {
    if (found) *found = 0;
    if (!detector || !rgb || (!out && capacity > 0)) { set_error(err, err_len, "null argument"); return -1; }
    if (width <= 0 || height <= 0 || stride < static_cast<size_t>(width) * 3) {
        set_error(err, err_len, "invalid image size " + std::to_string(width) + "x" + std::to_string(height));
        return -1;
    }
    try {
        const cv::Mat image(height, width, CV_8UC3, const_cast<uint8_t *>(rgb), stride);
        std::vector<Candidate> faces;
        {
            std::lock_guard<std::mutex> guard(detector->lock);
            faces = detector->impl->run(image, threshold, nms_iou);
        }
        if (found) *found = static_cast<int>(faces.size());
        const int n = std::min<int>(capacity, static_cast<int>(faces.size()));
        for (int i = 0; i < n; ++i) {
            sk_face &f = out[i];
            f.x = faces[i].box.x; f.y = faces[i].box.y;
            f.width = faces[i].box.width; f.height = faces[i].box.height;
            f.score = faces[i].score;
            f.has_landmarks = detector->landmarks ? 1 : 0;
            std::copy(std::begin(faces[i].landmarks), std::end(faces[i].landmarks), f.landmarks);
        }
        return n;
    } catch (const cv::Exception &e) {
        set_error(err, err_len, "face detection failed: " + condense(e));
    } catch (const std::exception &e) {
        set_error(err, err_len, std::string("face detection failed: ") + e.what());
    } catch (...) {
        set_error(err, err_len, "face detection failed");
    }
    return -1;
}

} // extern "C"
