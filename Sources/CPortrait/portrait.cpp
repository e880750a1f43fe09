// CPortrait: OpenCV behind extern "C" for the compositor's region mattes and the styles'
// flow-following strokes. Every entry point catches every exception (see sk_portrait.h).
#include "sk_portrait.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common.hpp"

namespace {

using namespace sk;


// MARK: Region matte

/// A face's own frame in some image's coordinates: centre, unit vectors across (eye line) and
/// down, and its size.
struct FaceFrame {
    cv::Point2f centre, across, down;
    float width, height;
    float headShift = 0; // where the head lies beside the face, in widths across (sk_face_seed)

    FaceFrame(const sk_face_seed &f, float sx, float sy) {
        width = f.width * sx;
        height = f.height * sy;
        across = {1, 0};
        centre = {(f.x + f.width / 2) * sx, (f.y + f.height * 0.52f) * sy};
        if (f.has_landmarks) {
            headShift = std::isfinite(f.head_shift) ? std::min(1.0f, std::max(-1.0f, f.head_shift)) : 0.0f;
            cv::Point2f le(f.landmarks[0] * sx, f.landmarks[1] * sy), re(f.landmarks[2] * sx, f.landmarks[3] * sy);
            cv::Point2f eyes = re - le;
            float len = std::sqrt(eyes.dot(eyes));
            if (len > 1e-3f) across = eyes / len;
            cv::Point2f sum(0, 0);
            for (int i = 0; i < 5; i++) sum += cv::Point2f(f.landmarks[2 * i] * sx, f.landmarks[2 * i + 1] * sy);
            centre = sum / 5.0f;
            // A box much larger than its face's features (one enlarged by hand around a face)
            // does not make the head larger: the region is sized from the face's own box, or it
            // drew the backdrop and clothes the larger box took in.
            float k = ownScale(f);
            width *= k;
            height *= k;
        }
        down = {-across.y, across.x};
    }

    /// The size of face its features imply, in their units: the larger of the eyes' distance
    /// and the eyes-to-mouth distance, each times the ratio a detector's box has to it (the
    /// medians over 1,003 faces the detector found on the example and bench photos: the box's
    /// shorter side is 0.76 of this, and at most 0.874 of it on 99 faces in 100; only faces
    /// lying sideways, their landmarks askew, went past 0.95).
    static float featureSize(cv::Point2f le, cv::Point2f re, cv::Point2f ml, cv::Point2f mr) {
        cv::Point2f eyes = re - le, toMouth = (ml + mr) * 0.5f - (le + re) * 0.5f;
        return std::max(2.18f * std::sqrt(eyes.dot(eyes)), 2.73f * std::sqrt(toMouth.dot(toMouth)));
    }
    /// A face's shorter side is taken as at most this many times its features' size.
    static constexpr float kFeatureReach = 0.95f;

    /// How much a face's box is shrunk about its landmarks' centre to the face's own box (the
    /// whole of CPortrait's `sk_own_scale`): 1 for a box no larger than its features imply
    /// (`kFeatureReach` times `featureSize`; every detected box), less for one enlarged by hand
    /// around a face: to the size its features imply, so the own box is its own own box. (The
    /// frame had a floor of 0.3 and the styles' own box none: a box more than 3.3 times its
    /// features drew its head larger than its strokes.)
    static float ownScale(const sk_face_seed &f) {
        if (!f.has_landmarks) return 1;
        const float *l = f.landmarks;
        float most = kFeatureReach * featureSize({l[0], l[1]}, {l[2], l[3]}, {l[6], l[7]}, {l[8], l[9]});
        float shorter = std::min(f.width, f.height);
        if (!std::isfinite(most) || most <= 1e-3f || !(shorter > most)) return 1;
        return most / shorter;
    }

    float angleDegrees() const { return std::atan2(across.y, across.x) * 180.0f / float(CV_PI); }

    /// The frame of the region `region` covers: moved across to where a turned head lies (the
    /// face alone half as far: its far cheek, not the hair behind it); the face's own features
    /// stay where they are.
    FaceFrame covering(int region) const {
        FaceFrame moved = *this;
        moved.centre += across * (headShift * width * (region == SK_REGION_FACE ? 0.5f : 1.0f));
        return moved;
    }

    /// A point `a` widths across and `d` heights down from the centre.
    cv::Point2f at(float a, float d) const { return centre + across * (a * width) + down * (d * height); }

    /// Fills an ellipse centred `d` heights down, with semi-axes in widths and heights.
    void ellipse(cv::Mat &mask, float d, float ra, float rd, int value) const {
        cv::ellipse(mask, cv::RotatedRect(at(0, d), cv::Size2f(2 * ra * width, 2 * rd * height), angleDegrees()),
                    cv::Scalar(value), cv::FILLED);
    }

    /// Fills a quadrilateral from `d0` to `d1` heights down, `w0` and `w1` widths wide there.
    void band(cv::Mat &mask, float d0, float d1, float w0, float w1, int value) const {
        std::vector<cv::Point> quad;
        for (cv::Point2f p : {at(-w0 / 2, d0), at(w0 / 2, d0), at(w1 / 2, d1), at(-w1 / 2, d1)})
            quad.emplace_back(cvRound(p.x), cvRound(p.y));
        cv::fillConvexPoly(mask, quad, cv::Scalar(value));
    }
};

/// One shape of a region's outer limit, in a face frame's units (see `FaceFrame`): an ellipse
/// `d0` heights down with semi-axes `a` widths and `b` heights, or a band from `d0` to `d1`
/// heights down, `a` widths wide at the top and `b` at the bottom.
struct LimitShape {
    bool ellipse;
    float d0, d1, a, b;

    void draw(cv::Mat &mask, const FaceFrame &frame, int value) const {
        if (ellipse) frame.ellipse(mask, d0, a, b, value);
        else frame.band(mask, d0, d1, a, b, value);
    }

    /// The rectangle holding the shape, in the frame's image coordinates.
    cv::Rect2f bounds(const FaceFrame &frame) const {
        if (ellipse)
            return cv::RotatedRect(frame.at(0, d0), cv::Size2f(2 * a * frame.width, 2 * b * frame.height), frame.angleDegrees())
                .boundingRect2f();
        std::vector<cv::Point2f> corners = {frame.at(-a / 2, d0), frame.at(a / 2, d0), frame.at(b / 2, d1), frame.at(-b / 2, d1)};
        float x0 = corners[0].x, y0 = corners[0].y, x1 = x0, y1 = y0;
        for (const cv::Point2f &c : corners) {
            x0 = std::min(x0, c.x); y0 = std::min(y0, c.y); x1 = std::max(x1, c.x); y1 = std::max(y1, c.y);
        }
        return cv::Rect2f(x0, y0, x1 - x0, y1 - y0);
    }
};

/// The shapes a region can at most reach, around the head: where a turned head lies beside
/// its face (`FaceFrame::covering`).
std::vector<LimitShape> limitShapes(int region) {
    switch (region) {
    case SK_REGION_FACE: return {{true, 0.02f, 0, 0.62f, 0.78f}};
    case SK_REGION_HEAD:
        return {{true, -0.18f, 0, 0.9f, 1.08f},
                {false, 0.3f, 1.05f, 0.9f, 1.3f}}; // neck
    default:
        return {{true, -0.18f, 0, 0.9f, 1.08f},
                {false, 0.3f, 1.0f, 1.0f, 3.4f},  // neck to shoulders
                {false, 1.0f, 4.2f, 3.4f, 3.4f}}; // body, to the bottom of the reach
    }
}

/// The shape a region can at most reach (value 255), for a face frame.
void outerLimit(cv::Mat &mask, const FaceFrame &face, int region) {
    const FaceFrame frame = face.covering(region);
    for (const LimitShape &shape : limitShapes(region)) shape.draw(mask, frame, 255);
}

/// How far past the outer limit a matte can reach: its fade, a gaussian of this sigma.
float fadeSigma(float faceSize) { return std::max(1.0f, faceSize * 0.04f); }

/// GrabCut seeds: what is surely the face (its features, where the landmarks are), what is
/// likely the region (around the head), the rest likely not.
void seeds(cv::Mat &mask, const FaceFrame &face, int region) {
    mask.setTo(cv::GC_BGD);
    cv::Mat limit = cv::Mat::zeros(mask.size(), CV_8U);
    outerLimit(limit, face, region);
    mask.setTo(cv::GC_PR_BGD, limit);
    const FaceFrame frame = face.covering(region);
    switch (region) {
    case SK_REGION_FACE: frame.ellipse(mask, 0.02f, 0.5f, 0.66f, cv::GC_PR_FGD); break;
    case SK_REGION_HEAD:
        frame.ellipse(mask, -0.15f, 0.62f, 0.86f, cv::GC_PR_FGD);
        frame.band(mask, 0.3f, 0.8f, 0.5f, 0.5f, cv::GC_PR_FGD);
        break;
    default:
        frame.ellipse(mask, -0.15f, 0.62f, 0.86f, cv::GC_PR_FGD);
        frame.band(mask, 0.3f, 0.85f, 0.5f, 0.6f, cv::GC_PR_FGD);
        frame.band(mask, 0.95f, 4.2f, 1.6f, 1.6f, cv::GC_PR_FGD);
        break;
    }
    face.ellipse(mask, 0.0f, 0.3f, 0.38f, cv::GC_FGD); // eyes, nose and mouth
}

/// The guided filter (He, Sun & Tang 2010) of `p` with grey guide `guide`, both float 0...1.
cv::Mat guidedFilter(const cv::Mat &guide, const cv::Mat &p, int radius, double eps) {
    cv::Size k(2 * radius + 1, 2 * radius + 1);
    auto mean = [&](const cv::Mat &m) {
        cv::Mat out;
        cv::boxFilter(m, out, CV_32F, k, cv::Point(-1, -1), true, cv::BORDER_REFLECT);
        return out;
    };
    cv::Mat meanI = mean(guide), meanP = mean(p);
    cv::Mat varI = mean(guide.mul(guide)) - meanI.mul(meanI);
    cv::Mat covIP = mean(guide.mul(p)) - meanI.mul(meanP);
    cv::Mat a = covIP / (varI + eps);
    cv::Mat b = meanP - a.mul(meanI);
    return mean(a).mul(guide) + mean(b);
}

/// The connected parts of `mask` (8-connected) that touch `seeds`, as 255.
cv::Mat partsTouching(const cv::Mat &mask, const cv::Mat &seeds) {
    cv::Mat labels;
    int n = cv::connectedComponents(mask, labels, 8, CV_32S);
    std::vector<uint8_t> keep(n, 0);
    for (int y = 0; y < mask.rows; y++)
        for (int x = 0; x < mask.cols; x++)
            if (seeds.at<uint8_t>(y, x) && labels.at<int>(y, x) > 0) keep[labels.at<int>(y, x)] = 1;
    cv::Mat kept = cv::Mat::zeros(mask.size(), CV_8U);
    for (int y = 0; y < mask.rows; y++)
        for (int x = 0; x < mask.cols; x++)
            if (keep[labels.at<int>(y, x)]) kept.at<uint8_t>(y, x) = 255;
    return kept;
}

/// The connected parts of `fg` that touch `core`, with their holes filled.
cv::Mat attachedToCore(const cv::Mat &fg, const cv::Mat &core) {
    cv::Mat kept = partsTouching(fg, core);
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(kept.clone(), contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
    cv::drawContours(kept, contours, -1, cv::Scalar(255), cv::FILLED);
    return kept;
}

/// One of GrabCut's colour models (OpenCV's layout: five components, their weights, then their
/// means, then their 3 x 3 covariances), ready to give a colour's likelihood under it.
class ColourModel {
    struct Component {
        double scale;      // weight / sqrt(det)
        double mean[3];
        double inverse[9]; // of the covariance
    };
    std::vector<Component> components;

public:
    explicit ColourModel(const cv::Mat &model) {
        const int k = 5;
        const double *m = model.ptr<double>(0), *weights = m, *means = m + k, *covs = m + 4 * k;
        for (int i = 0; i < k; i++) {
            const double *c = covs + 9 * i;
            const double det = c[0] * (c[4] * c[8] - c[5] * c[7]) - c[1] * (c[3] * c[8] - c[5] * c[6]) + c[2] * (c[3] * c[7] - c[4] * c[6]);
            if (!(weights[i] > 0) || !(det > 1e-12)) continue;
            Component one{weights[i] / std::sqrt(det), {means[3 * i], means[3 * i + 1], means[3 * i + 2]},
                          {(c[4] * c[8] - c[5] * c[7]) / det, -(c[1] * c[8] - c[2] * c[7]) / det, (c[1] * c[5] - c[2] * c[4]) / det,
                           -(c[3] * c[8] - c[5] * c[6]) / det, (c[0] * c[8] - c[2] * c[6]) / det, -(c[0] * c[5] - c[2] * c[3]) / det,
                           (c[3] * c[7] - c[4] * c[6]) / det, -(c[0] * c[7] - c[1] * c[6]) / det, (c[0] * c[4] - c[1] * c[3]) / det}};
            components.push_back(one);
        }
    }

    /// The likelihood of `colour` (up to the constant every model shares).
    double likelihood(const cv::Vec3b &colour) const {
        double sum = 0;
        for (const Component &c : components) {
            const double d[3] = {colour[0] - c.mean[0], colour[1] - c.mean[1], colour[2] - c.mean[2]};
            double q = 0;
            for (int r = 0; r < 3; r++)
                for (int s = 0; s < 3; s++) q += d[r] * c.inverse[3 * r + s] * d[s];
            sum += c.scale * std::exp(-0.5 * q);
        }
        return sum;
    }
};

/// Where a head's ears are: the pixels of `small` (RGB) in the two places beside a face where
/// ears lie (`frame`: the head's) whose colour GrabCut's own models take for the head's rather
/// than the backdrop's. Seeded with the face's middle as the likely head, the cut took an ear
/// beside a cheek for backdrop on one side of many large faces (its thin shape costs more edge
/// than its colour earns), and the ear stayed in photo colour beside a drawn face.
cv::Mat earsByColour(const cv::Mat &small, const FaceFrame &frame, const cv::Mat &fgModel, const cv::Mat &bgModel) {
    cv::Mat ears = cv::Mat::zeros(small.size(), CV_8U);
    for (float side : {-1.0f, 1.0f})
        cv::ellipse(ears, cv::RotatedRect(frame.at(side * 0.6f, -0.05f), cv::Size2f(2 * 0.14f * frame.width, 2 * 0.24f * frame.height),
                                          frame.angleDegrees()),
                    cv::Scalar(255), cv::FILLED);
    const ColourModel head(fgModel), backdrop(bgModel);
    for (int y = 0; y < small.rows; y++)
        for (int x = 0; x < small.cols; x++) {
            if (!ears.at<uint8_t>(y, x)) continue;
            const cv::Vec3b c = small.at<cv::Vec3b>(y, x);
            if (!(head.likelihood(c) > 2 * backdrop.likelihood(c))) ears.at<uint8_t>(y, x) = 0;
        }
    return ears;
}

/// The connected parts of `mask` that do not touch its edge.
cv::Mat clearOfTheEdge(const cv::Mat &mask) {
    cv::Mat edge = cv::Mat::zeros(mask.size(), CV_8U);
    cv::rectangle(edge, cv::Rect(0, 0, mask.cols, mask.rows), cv::Scalar(255), 1);
    return mask & ~partsTouching(mask, edge);
}

/// A person's body matte starts at the chin (this many face heights below the middle of the
/// landmarks) and is whole from mid-neck.
constexpr float kBodyFrom = 0.45f, kBodyWhole = 0.75f;

void regionMatte(const unsigned char *rgb, int width, int height, const sk_face_seed *faces, int count,
                 int target, int region, float workSize, unsigned char *alpha) {
    checkImage(rgb, width, height);
    if (!faces || count <= 0 || target < 0 || target >= count) throw std::invalid_argument("no such face");
    if (region < SK_REGION_FACE || region > SK_REGION_PERSON) throw std::invalid_argument("unknown region");
    const sk_face_seed &face = faces[target];
    float faceSize = std::min(face.width, face.height);
    if (!(faceSize > 0)) throw std::invalid_argument("empty face box");
    cv::Mat crop(height, width, CV_8UC3, const_cast<unsigned char *>(rgb));

    // GrabCut on a reduced copy: the face about workSize pixels across (a head's crop some
    // 15,000 pixels, a person's up to ~70,000), and never more than `mostPixels`.
    const double mostPixels = 262144;
    double scale = std::min({1.0, double(std::max(workSize, 16.0f)) / faceSize,
                             std::sqrt(mostPixels / (double(width) * double(height)))});
    // A box no face has (a strip 25 pixels wide and 4,761 tall, drawn by hand on a tall
    // picture) gets its region's shape without a cut: on such a strip of a GIF's few colours
    // GrabCut ran for minutes (RegionMatteTests), where a face's cut takes ~40 ms.
    const bool faceLike = std::max(face.width, face.height) <= 4 * faceSize;
    cv::Size smallSize(std::max(8, int(std::lround(width * scale))), std::max(8, int(std::lround(height * scale))));
    float sx = float(smallSize.width) / width, sy = float(smallSize.height) / height;
    cv::Mat small;
    reducedByArea(crop, small, smallSize);
    FaceFrame frame(face, sx, sy);

    cv::Mat mask(smallSize, CV_8U);
    seeds(mask, frame, region);
    // Every other face's centre is surely not this face's region: neighbours stay apart. Not
    // one whose centre lies on this face's box: it is a face this one stands in front of (in a
    // clip, a face crossing behind another is followed across it), and its centre as
    // background cut a hole in this face's matte, carried with it from frame to frame.
    for (int i = 0; i < count; i++) {
        if (i == target) continue;
        const float cx = faces[i].x + faces[i].width / 2, cy = faces[i].y + faces[i].height / 2;
        if (cx >= face.x && cx < face.x + face.width && cy >= face.y && cy < face.y + face.height) continue;
        FaceFrame(faces[i], sx, sy).ellipse(mask, 0.0f, 0.3f, 0.38f, cv::GC_BGD);
    }
    cv::Mat core = (mask == cv::GC_FGD);
    cv::Mat prior = (mask == cv::GC_FGD) | (mask == cv::GC_PR_FGD);

    cv::Mat fg = prior.clone();
    int background = cv::countNonZero((mask == cv::GC_BGD) | (mask == cv::GC_PR_BGD));
    if (faceLike && cv::countNonZero(core) > 0 && background > 32) {
        cv::theRNG().state = 0x5ce7e; // GrabCut's k-means starts from the thread's generator
        cv::Mat bgModel, fgModel;
        // Two rounds: GrabCut is nearly all of a matte's cost, and its cut hardly moves after the
        // second (on 39 faces of the example photos and the bench clip, four rounds against
        // two: the mattes 0.17 levels apart on average, at most 2.7 on one face; 69 → 42 ms a
        // face, one thread).
        cv::grabCut(small, mask, cv::Rect(), bgModel, fgModel, 2, cv::GC_INIT_WITH_MASK);
        fg = (mask == cv::GC_FGD) | (mask == cv::GC_PR_FGD);
        // Close small gaps (strands, glasses' rims), keep what hangs together with the face.
        int k = std::max(1, int(std::lround(frame.width * 0.06f))) | 1;
        cv::morphologyEx(fg, fg, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(k, k)));
        fg = attachedToCore(fg, core);
        // Above the brows a head is a dome: what stands out of it narrower than half the face
        // is not the head but backdrop the cut joined to it (a pale blur behind a bald scalp,
        // drawn as a grey strip up the picture). Cut off there; ears and neck, lower down, keep
        // their shapes.
        if (region != SK_REGION_FACE) {
            int d = std::max(3, int(std::lround(frame.width * 0.5f))) | 1;
            cv::Mat opened, above = cv::Mat::zeros(fg.size(), CV_8U);
            cv::morphologyEx(fg, opened, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(d, d)));
            frame.band(above, -6.0f, -0.45f, 12.0f, 12.0f, 255);
            opened.copyTo(fg, above);
            fg = attachedToCore(fg, core);
        }
        // A cut that lost most of the likely region, or ran far past it, is not trusted.
        double kept = cv::countNonZero(fg & prior), expected = cv::countNonZero(prior);
        if (kept < 0.45 * expected) {
            // A person's head is the head's own matte; an untrusted body is left out, not
            // drawn as the likely region's shape (a band down from the chin).
            fg = region == SK_REGION_PERSON ? cv::Mat::zeros(fg.size(), CV_8U) : prior.clone();
        } else if (region != SK_REGION_FACE) {
            // A trusted cut gets the ears its colour models take for the head's (never what is
            // surely not this head). An ear ends beside the head: a patch of such colour
            // running to the crop's edge is someone else (a face behind, out of focus), or an arm.
            cv::Mat ears = earsByColour(small, frame.covering(region), fgModel, bgModel) & (mask != cv::GC_BGD) & ~fg;
            fg = attachedToCore(fg | clearOfTheEdge(ears), core);
        }
    }

    // Soft at low resolution, enlarged, then snapped to the full-size crop's edges.
    cv::Mat soft;
    fg.convertTo(soft, CV_32F, 1.0 / 255);
    cv::GaussianBlur(soft, soft, cv::Size(), std::max(0.6, frame.width * 0.015));
    cv::Mat p;
    cv::resize(soft, p, crop.size(), 0, 0, cv::INTER_LINEAR);
    cv::Mat grey;
    cv::cvtColor(crop, grey, cv::COLOR_RGB2GRAY);
    grey.convertTo(grey, CV_32F, 1.0 / 255);
    int radius = std::max(2, int(std::lround(faceSize * 0.035f)));
    cv::Mat q = guidedFilter(grey, p, radius, 2e-3);

    // Never past the outer limit, which fades out before it (no edge where the crop ends).
    cv::Mat limit = cv::Mat::zeros(crop.size(), CV_8U);
    outerLimit(limit, FaceFrame(face, 1, 1), region);
    cv::Mat fade;
    limit.convertTo(fade, CV_32F, 1.0 / 255);
    cv::GaussianBlur(fade, fade, cv::Size(), fadeSigma(faceSize));
    fade = cv::min(fade * 2.0 - 0.2, 1.0);
    q = cv::min(q, fade);
    // A person's cut is its body: what lies below the chin, reached smoothly down the neck.
    // The head above it is the head's own matte (the caller's union), cut on the head's
    // reach: cut with a body, it lost hair and scalp the head's cut keeps.
    if (region == SK_REGION_PERSON) {
        const FaceFrame frame = FaceFrame(face, 1, 1).covering(region);
        for (int y = 0; y < height; y++) {
            float *row = q.ptr<float>(y);
            for (int x = 0; x < width; x++) {
                const float down = (cv::Point2f(float(x), float(y)) - frame.centre).dot(frame.down) / frame.height;
                row[x] *= smoothstep(kBodyFrom, kBodyWhole, down);
            }
        }
    }
    cv::Mat out(height, width, CV_8U, alpha);
    q.convertTo(out, CV_8U, 255.0); // saturates to 0...255
}

// MARK: Edge tangent flow

/// The edge tangent flow of a grey float image: unit tangents (along edges) from the
/// structure tensor smoothed over `sigma`; flat areas lean towards the diagonal.
void tangentFlow(const cv::Mat &grey, float sigma, cv::Mat &tx, cv::Mat &ty) {
    cv::Mat gx, gy;
    cv::Sobel(grey, gx, CV_32F, 1, 0, 3, 0.25);
    cv::Sobel(grey, gy, CV_32F, 0, 1, 3, 0.25);
    cv::Mat e = gx.mul(gx), f = gx.mul(gy), g = gy.mul(gy);
    cv::Size none;
    cv::GaussianBlur(e, e, none, sigma);
    cv::GaussianBlur(f, f, none, sigma);
    cv::GaussianBlur(g, g, none, sigma);
    tx.create(grey.size(), CV_32F);
    ty.create(grey.size(), CV_32F);
    const float bias = 1e-5f; // a faint diagonal gradient where the image says nothing
    for (int y = 0; y < grey.rows; y++) {
        const float *E = e.ptr<float>(y), *F = f.ptr<float>(y), *G = g.ptr<float>(y);
        float *TX = tx.ptr<float>(y), *TY = ty.ptr<float>(y);
        for (int x = 0; x < grey.cols; x++) {
            float ee = E[x] + bias * 0.5f, ff = F[x] + bias * 0.5f, gg = G[x] + bias * 0.5f;
            float root = std::sqrt((ee - gg) * (ee - gg) + 4 * ff * ff);
            float l1 = (ee + gg + root) / 2;
            float vx = ff, vy = l1 - ee; // the gradient's direction
            if (vx * vx + vy * vy < 1e-12f) { vx = l1 - gg; vy = ff; }
            float len = std::sqrt(vx * vx + vy * vy);
            if (len < 1e-9f) { vx = 0.7071f; vy = 0.7071f; len = 1; }
            TX[x] = -vy / len;
            TY[x] = vx / len;
        }
    }
}

/// `m` (float) at (x, y), between its four nearest pixels; clamped to its edges.
/// Inlined: the flow filters call it a dozen times per pixel.
__attribute__((always_inline)) inline float bilinear(const cv::Mat &m, float x, float y) {
    x = std::min(std::max(x, 0.0f), float(m.cols - 1));
    y = std::min(std::max(y, 0.0f), float(m.rows - 1));
    int x0 = int(x), y0 = int(y);
    int x1 = std::min(x0 + 1, m.cols - 1), y1 = std::min(y0 + 1, m.rows - 1);
    float fx = x - x0, fy = y - y0;
    const float *r0 = reinterpret_cast<const float *>(m.data + size_t(y0) * m.step[0]);
    const float *r1 = reinterpret_cast<const float *>(m.data + size_t(y1) * m.step[0]);
    return (r0[x0] * (1 - fx) + r0[x1] * fx) * (1 - fy) + (r1[x0] * (1 - fx) + r1[x1] * fx) * fy;
}

#if defined(__x86_64__)

/// std::min(std::max(v, 0), top) as `bilinear` writes it: v < 0 ? 0 : v, then top < v ? top : v.
__attribute__((target("avx2"), always_inline)) inline __m256 clamped(__m256 v, __m256 top) {
    const __m256 zero = _mm256_setzero_ps();
    v = _mm256_blendv_ps(v, zero, _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
    return _mm256_blendv_ps(v, top, _mm256_cmp_ps(top, v, _CMP_LT_OQ));
}

/// The value of `m` (float) between its four nearest pixels at eight points already clamped to
/// its edges, as `bilinear` computes it, operation for operation.
__attribute__((target("avx2"), always_inline)) inline __m256 bilinearEightInside(const cv::Mat &m, __m256 x, __m256 y) {
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256i plusOne = _mm256_set1_epi32(1), stride = _mm256_set1_epi32(int(m.step[0] / sizeof(float)));
    __m256i x0 = _mm256_cvttps_epi32(x), y0 = _mm256_cvttps_epi32(y);
    __m256i x1 = _mm256_min_epi32(_mm256_add_epi32(x0, plusOne), _mm256_set1_epi32(m.cols - 1));
    __m256i y1 = _mm256_min_epi32(_mm256_add_epi32(y0, plusOne), _mm256_set1_epi32(m.rows - 1));
    __m256 fx = _mm256_sub_ps(x, _mm256_cvtepi32_ps(x0)), fy = _mm256_sub_ps(y, _mm256_cvtepi32_ps(y0));
    const float *data = reinterpret_cast<const float *>(m.data);
    __m256i row0 = _mm256_mullo_epi32(y0, stride), row1 = _mm256_mullo_epi32(y1, stride);
    __m256 a = _mm256_i32gather_ps(data, _mm256_add_epi32(row0, x0), 4);
    __m256 b = _mm256_i32gather_ps(data, _mm256_add_epi32(row0, x1), 4);
    __m256 c = _mm256_i32gather_ps(data, _mm256_add_epi32(row1, x0), 4);
    __m256 d = _mm256_i32gather_ps(data, _mm256_add_epi32(row1, x1), 4);
    __m256 restX = _mm256_sub_ps(one, fx);
    __m256 top = _mm256_add_ps(_mm256_mul_ps(a, restX), _mm256_mul_ps(b, fx));
    __m256 bottom = _mm256_add_ps(_mm256_mul_ps(c, restX), _mm256_mul_ps(d, fx));
    return _mm256_add_ps(_mm256_mul_ps(top, _mm256_sub_ps(one, fy)), _mm256_mul_ps(bottom, fy));
}

/// `bilinearEightInside` at eight points clamped to `m`'s edges first, as `bilinear` clamps.
__attribute__((target("avx2"), always_inline)) inline __m256 bilinearEight(const cv::Mat &m, __m256 x, __m256 y) {
    return bilinearEightInside(m, clamped(x, _mm256_set1_ps(float(m.cols - 1))), clamped(y, _mm256_set1_ps(float(m.rows - 1))));
}

/// `flowLines`' DoG across the flow at the eight pixels from (`x`, `y`) along the row, as its
/// `dogAt` sums it, into `out` (eight floats).
__attribute__((target("avx2"))) void dogEight(const cv::Mat &grey, const cv::Mat &tx, const cv::Mat &ty, int x, int y,
                                              const float *across, int reach, float *out) {
    const __m256 signBit = _mm256_set1_ps(-0.0f);
    const float *txRow = tx.ptr<float>(y), *tyRow = ty.ptr<float>(y);
    __m256 gx = _mm256_loadu_ps(tyRow + x), gy = _mm256_xor_ps(_mm256_loadu_ps(txRow + x), signBit);
    __m256 px = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(x), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
    __m256 py = _mm256_set1_ps(float(y));
    __m256 sum = _mm256_setzero_ps();
    for (int i = -reach; i <= reach; i++) {
        __m256 step = _mm256_set1_ps(float(i));
        __m256 value = bilinearEight(grey, _mm256_add_ps(px, _mm256_mul_ps(step, gx)), _mm256_add_ps(py, _mm256_mul_ps(step, gy)));
        sum = _mm256_add_ps(sum, _mm256_mul_ps(_mm256_set1_ps(across[i + reach]), value));
    }
    _mm256_storeu_ps(out, sum);
}

/// Eight streamlines of `flowLines` walked in one AVX2 register each way, reading the DoG and
/// the tangents with gathers: the same operations in the same order as the lane loop there, so
/// the same sums to the bit (no fused multiply-adds). `at` holds the eight pixels' columns in
/// row `y`; the weighted sums and their weights come back in `sumOut` and `weightOut`.
__attribute__((target("avx2"))) void walkEight(const cv::Mat &dog, const cv::Mat &tx, const cv::Mat &ty, const int *at, int y,
                                               int steps, const float *stepWeight, float *sumOut, float *weightOut) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f);
    const __m256 minusOne = _mm256_set1_ps(-1.0f);
    const __m256 maxX = _mm256_set1_ps(float(dog.cols - 1)), maxY = _mm256_set1_ps(float(dog.rows - 1));
    const __m256i dogStride = _mm256_set1_epi32(int(dog.step[0] / sizeof(float)));
    const __m256i flowStride = _mm256_set1_epi32(int(tx.step[0] / sizeof(float)));
    const float *txData = reinterpret_cast<const float *>(tx.data), *tyData = reinterpret_cast<const float *>(ty.data);
    const __m256i columns = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(at));
    const __m256i here = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(y), flowStride), columns);
    const __m256i dogHere = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(y), dogStride), columns);
    __m256 sum = _mm256_mul_ps(_mm256_set1_ps(stepWeight[0]), _mm256_i32gather_ps(reinterpret_cast<const float *>(dog.data), dogHere, 4));
    __m256 weights = _mm256_set1_ps(stepWeight[0]);
    for (float sign : {1.0f, -1.0f}) {
        const __m256 s = _mm256_set1_ps(sign);
        __m256 px = _mm256_cvtepi32_ps(columns), py = _mm256_set1_ps(float(y));
        __m256 dx = _mm256_mul_ps(_mm256_i32gather_ps(txData, here, 4), s);
        __m256 dy = _mm256_mul_ps(_mm256_i32gather_ps(tyData, here, 4), s);
        __m256 alive = one;
        for (int i = 1; i <= steps; i++) {
            const __m256 w = _mm256_set1_ps(stepWeight[i]);
            px = _mm256_add_ps(px, dx);
            py = _mm256_add_ps(py, dy);
            __m256 inside = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(px, zero, _CMP_GE_OQ), _mm256_cmp_ps(py, zero, _CMP_GE_OQ)),
                                          _mm256_and_ps(_mm256_cmp_ps(px, maxX, _CMP_LE_OQ), _mm256_cmp_ps(py, maxY, _CMP_LE_OQ)));
            alive = _mm256_blendv_ps(zero, alive, inside);
            __m256 counted = _mm256_mul_ps(alive, w);
            // The DoG between its four nearest pixels (`bilinear`), and the tangent at the
            // nearest, turned to keep going the same way; both where the point is clamped to.
            __m256 bx = clamped(px, maxX), by = clamped(py, maxY);
            sum = _mm256_add_ps(sum, _mm256_mul_ps(counted, bilinearEightInside(dog, bx, by)));
            weights = _mm256_add_ps(weights, counted);
            __m256i ix = _mm256_cvttps_epi32(_mm256_add_ps(bx, half)), iy = _mm256_cvttps_epi32(_mm256_add_ps(by, half));
            __m256i cell = _mm256_add_epi32(_mm256_mullo_epi32(iy, flowStride), ix);
            __m256 nx = _mm256_i32gather_ps(txData, cell, 4), ny = _mm256_i32gather_ps(tyData, cell, 4);
            __m256 dot = _mm256_add_ps(_mm256_mul_ps(nx, dx), _mm256_mul_ps(ny, dy));
            __m256 flip = _mm256_blendv_ps(one, minusOne, _mm256_cmp_ps(dot, zero, _CMP_LT_OQ));
            dx = _mm256_mul_ps(nx, flip);
            dy = _mm256_mul_ps(ny, flip);
        }
    }
    _mm256_storeu_ps(sumOut, sum);
    _mm256_storeu_ps(weightOut, weights);
}

/// `clamped` in an AVX-512 register: v < 0 ? 0 : v, then top < v ? top : v.
__attribute__((target("avx512f"), always_inline)) inline __m512 clampedWide(__m512 v, __m512 top) {
    const __m512 zero = _mm512_setzero_ps();
    v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, zero, _CMP_LT_OQ), v, zero);
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(top, v, _CMP_LT_OQ), v, top);
}

/// `bilinearEightInside` at sixteen points in AVX-512 registers, operation for operation.
__attribute__((target("avx512f"), always_inline)) inline __m512 bilinearSixteenInside(const cv::Mat &m, __m512 x, __m512 y) {
    const __m512 one = _mm512_set1_ps(1.0f);
    const __m512i plusOne = _mm512_set1_epi32(1), stride = _mm512_set1_epi32(int(m.step[0] / sizeof(float)));
    __m512i x0 = _mm512_cvttps_epi32(x), y0 = _mm512_cvttps_epi32(y);
    __m512i x1 = _mm512_min_epi32(_mm512_add_epi32(x0, plusOne), _mm512_set1_epi32(m.cols - 1));
    __m512i y1 = _mm512_min_epi32(_mm512_add_epi32(y0, plusOne), _mm512_set1_epi32(m.rows - 1));
    __m512 fx = _mm512_sub_ps(x, _mm512_cvtepi32_ps(x0)), fy = _mm512_sub_ps(y, _mm512_cvtepi32_ps(y0));
    const float *data = reinterpret_cast<const float *>(m.data);
    __m512i row0 = _mm512_mullo_epi32(y0, stride), row1 = _mm512_mullo_epi32(y1, stride);
    __m512 a = _mm512_i32gather_ps(_mm512_add_epi32(row0, x0), data, 4);
    __m512 b = _mm512_i32gather_ps(_mm512_add_epi32(row0, x1), data, 4);
    __m512 c = _mm512_i32gather_ps(_mm512_add_epi32(row1, x0), data, 4);
    __m512 d = _mm512_i32gather_ps(_mm512_add_epi32(row1, x1), data, 4);
    __m512 restX = _mm512_sub_ps(one, fx);
    __m512 top = _mm512_add_ps(_mm512_mul_ps(a, restX), _mm512_mul_ps(b, fx));
    __m512 bottom = _mm512_add_ps(_mm512_mul_ps(c, restX), _mm512_mul_ps(d, fx));
    return _mm512_add_ps(_mm512_mul_ps(top, _mm512_sub_ps(one, fy)), _mm512_mul_ps(bottom, fy));
}

/// `dogEight` at sixteen pixels in AVX-512 registers: the same operations, lane for lane.
__attribute__((target("avx512f"))) void dogSixteen(const cv::Mat &grey, const cv::Mat &tx, const cv::Mat &ty, int x, int y,
                                                    const float *across, int reach, float *out) {
    const __m512i signBit = _mm512_castps_si512(_mm512_set1_ps(-0.0f));
    const __m512 maxX = _mm512_set1_ps(float(grey.cols - 1)), maxY = _mm512_set1_ps(float(grey.rows - 1));
    const float *txRow = tx.ptr<float>(y), *tyRow = ty.ptr<float>(y);
    __m512 gx = _mm512_loadu_ps(tyRow + x);
    __m512 gy = _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(_mm512_loadu_ps(txRow + x)), signBit));
    __m512 px = _mm512_cvtepi32_ps(_mm512_add_epi32(_mm512_set1_epi32(x), _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
    __m512 py = _mm512_set1_ps(float(y));
    __m512 sum = _mm512_setzero_ps();
    for (int i = -reach; i <= reach; i++) {
        __m512 step = _mm512_set1_ps(float(i));
        __m512 bx = clampedWide(_mm512_add_ps(px, _mm512_mul_ps(step, gx)), maxX);
        __m512 by = clampedWide(_mm512_add_ps(py, _mm512_mul_ps(step, gy)), maxY);
        sum = _mm512_add_ps(sum, _mm512_mul_ps(_mm512_set1_ps(across[i + reach]), bilinearSixteenInside(grey, bx, by)));
    }
    _mm512_storeu_ps(out, sum);
}

/// `walkEight` for sixteen streamlines in AVX-512 registers: the same operations in the same
/// order, lane for lane, so the same sums to the bit. Sixteen chains of dependent steps side
/// by side keep the processor busy where eight left it waiting on their gathers.
__attribute__((target("avx512f"))) void walkSixteen(const cv::Mat &dog, const cv::Mat &tx, const cv::Mat &ty, const int *at,
                                                     int y, int steps, const float *stepWeight, float *sumOut,
                                                     float *weightOut) {
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f), half = _mm512_set1_ps(0.5f);
    const __m512 minusOne = _mm512_set1_ps(-1.0f);
    const __m512 maxX = _mm512_set1_ps(float(dog.cols - 1)), maxY = _mm512_set1_ps(float(dog.rows - 1));
    const __m512i dogStride = _mm512_set1_epi32(int(dog.step[0] / sizeof(float)));
    const __m512i flowStride = _mm512_set1_epi32(int(tx.step[0] / sizeof(float)));
    const float *dogData = reinterpret_cast<const float *>(dog.data);
    const float *txData = reinterpret_cast<const float *>(tx.data), *tyData = reinterpret_cast<const float *>(ty.data);
    const __m512i columns = _mm512_loadu_si512(at);
    const __m512i here = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_set1_epi32(y), flowStride), columns);
    const __m512i dogHere = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_set1_epi32(y), dogStride), columns);
    __m512 sum = _mm512_mul_ps(_mm512_set1_ps(stepWeight[0]), _mm512_i32gather_ps(dogHere, dogData, 4));
    __m512 weights = _mm512_set1_ps(stepWeight[0]);
    for (float sign : {1.0f, -1.0f}) {
        const __m512 s = _mm512_set1_ps(sign);
        __m512 px = _mm512_cvtepi32_ps(columns), py = _mm512_set1_ps(float(y));
        __m512 dx = _mm512_mul_ps(_mm512_i32gather_ps(here, txData, 4), s);
        __m512 dy = _mm512_mul_ps(_mm512_i32gather_ps(here, tyData, 4), s);
        __m512 alive = one;
        for (int i = 1; i <= steps; i++) {
            const __m512 w = _mm512_set1_ps(stepWeight[i]);
            px = _mm512_add_ps(px, dx);
            py = _mm512_add_ps(py, dy);
            __mmask16 inside = _mm512_cmp_ps_mask(px, zero, _CMP_GE_OQ) & _mm512_cmp_ps_mask(py, zero, _CMP_GE_OQ) &
                               _mm512_cmp_ps_mask(px, maxX, _CMP_LE_OQ) & _mm512_cmp_ps_mask(py, maxY, _CMP_LE_OQ);
            alive = _mm512_mask_blend_ps(inside, zero, alive);
            __m512 counted = _mm512_mul_ps(alive, w);
            // The DoG between its four nearest pixels (`bilinear`), and the tangent at the
            // nearest, turned to keep going the same way; both where the point is clamped to.
            __m512 bx = clampedWide(px, maxX), by = clampedWide(py, maxY);
            sum = _mm512_add_ps(sum, _mm512_mul_ps(counted, bilinearSixteenInside(dog, bx, by)));
            weights = _mm512_add_ps(weights, counted);
            __m512i ix = _mm512_cvttps_epi32(_mm512_add_ps(bx, half)), iy = _mm512_cvttps_epi32(_mm512_add_ps(by, half));
            __m512i cell = _mm512_add_epi32(_mm512_mullo_epi32(iy, flowStride), ix);
            __m512 nx = _mm512_i32gather_ps(cell, txData, 4), ny = _mm512_i32gather_ps(cell, tyData, 4);
            __m512 dot = _mm512_add_ps(_mm512_mul_ps(nx, dx), _mm512_mul_ps(ny, dy));
            __m512 flip = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(dot, zero, _CMP_LT_OQ), one, minusOne);
            dx = _mm512_mul_ps(nx, flip);
            dy = _mm512_mul_ps(ny, flip);
        }
    }
    _mm512_storeu_ps(sumOut, sum);
    _mm512_storeu_ps(weightOut, weights);
}
#endif

} // namespace

namespace sk {

void flowLines(const unsigned char *greyBytes, int width, int height, float flowSigma, float sigmaC,
               float sigmaM, float rho, float phi, unsigned char *outBytes) {
    checkImage(greyBytes, width, height);
    cv::Mat grey;
    cv::Mat(height, width, CV_8U, const_cast<unsigned char *>(greyBytes)).convertTo(grey, CV_32F, 1.0 / 255);
    cv::Mat tx, ty;
    tangentFlow(grey, std::max(0.5f, flowSigma), tx, ty);

    // The DoG across the flow: normalised gaussians of sigma_c and 1.6 sigma_c.
    sigmaC = std::max(0.4f, sigmaC);
    float sigmaS = 1.6f * sigmaC;
    int reach = int(std::ceil(2.5f * sigmaS));
    std::vector<float> across(2 * reach + 1);
    {
        double sumC = 0, sumS = 0;
        std::vector<double> gc(across.size()), gs(across.size());
        for (int i = -reach; i <= reach; i++) {
            gc[i + reach] = std::exp(-0.5 * i * i / (sigmaC * sigmaC));
            gs[i + reach] = std::exp(-0.5 * i * i / (sigmaS * sigmaS));
            sumC += gc[i + reach];
            sumS += gs[i + reach];
        }
        for (size_t i = 0; i < across.size(); i++) across[i] = float(gc[i] / sumC - rho * gs[i] / sumS);
    }
    auto dogAt = [&](int x, int y) {
        float gx = ty.at<float>(y, x), gy = -tx.at<float>(y, x); // across the edge
        float sum = 0;
        for (int i = -reach; i <= reach; i++) sum += across[i + reach] * bilinear(grey, x + i * gx, y + i * gy);
        return sum;
    };
    // Accumulated along the flow, then soft-thresholded: ink where the sum is negative.
    sigmaM = std::max(0.5f, sigmaM);
    int steps = int(std::ceil(2 * sigmaM));
    // The weight of each step along the streamline, computed once.
    std::vector<float> stepWeight(steps + 1);
    for (int i = 0; i <= steps; i++) stepWeight[i] = std::exp(-0.5f * i * i / (sigmaM * sigmaM));
    // Eight streamlines walked side by side: each step of one waits on the tangent it reached,
    // so one at a time the processor mostly waits; eight at a time it does not. A lane leaving
    // the image stops counting (as a lone streamline stops there).
    constexpr int lanes = 8;
    const float maxX = float(width - 1), maxY = float(height - 1);
    cv::Mat out(height, width, CV_8U, outBytes);
    // Most of a face is paper, and is found without walking its streamlines, or even taking
    // the DoG everywhere; the output is the same byte for byte:
    // - where no DoG value within a streamline's reach (its steps, and a pixel more for the
    //   bilinear read) is below `paperFrom`, the weighted mean of the values it reads is not
    //   either, and the soft threshold gives paper (255 after rounding: 1 + tanh(-0.0015) is
    //   254.6 levels);
    // - a pixel's DoG is at least its positive weights times the lowest grey it can read
    //   (within the DoG's reach and a pixel) less its negative weights times the highest: where
    //   that is already above `paperFrom` (flat areas: the weights add up to 1 - rho > 0), its
    //   DoG is taken only if a walked streamline reads it.
    const float paperFrom = -0.0015f / std::max(phi, 1e-3f);
    const int near = steps + 1;
    float positive = 0, negative = 0;
    for (float a : across) (a > 0 ? positive : negative) += std::abs(a);
    cv::Mat lowestGrey, highestGrey;
    cv::Mat readable = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * reach + 3, 2 * reach + 3));
    cv::erode(grey, lowestGrey, readable);
    cv::dilate(grey, highestGrey, readable);
    cv::Mat sure = positive * lowestGrey - negative * highestGrey >= paperFrom;
    cv::Mat dog = cv::Mat::zeros(grey.size(), CV_32F); // 0 (paper) until taken
#if defined(__x86_64__)
    const bool vectorDoG = vectorInstructions() && tx.step[0] == ty.step[0] && double(height) * double(grey.step[0]) < double(1u << 31);
    const bool wideDoG = vectorDoG && wideVectorInstructions();
#endif
    auto takeDoG = [&](const cv::Mat &where) {
        cv::parallel_for_(cv::Range(0, height), [&](const cv::Range &rows) {
            for (int y = rows.start; y < rows.end; y++) {
                const uint8_t *take = where.ptr<uint8_t>(y);
                float *row = dog.ptr<float>(y);
                int x = 0;
#if defined(__x86_64__)
                // Sixteen (with AVX-512) or eight at once where any of them is wanted.
                for (; wideDoG && x + 16 <= width; x += 16) {
                    uint64_t wanted[2];
                    std::memcpy(wanted, take + x, 16);
                    if (!(wanted[0] | wanted[1])) continue;
                    float sixteen[16];
                    dogSixteen(grey, tx, ty, x, y, across.data(), reach, sixteen);
                    for (int k = 0; k < 16; k++)
                        if (take[x + k]) row[x + k] = sixteen[k];
                }
                for (; vectorDoG && x + 8 <= width; x += 8) {
                    uint64_t wanted;
                    std::memcpy(&wanted, take + x, 8);
                    if (!wanted) continue;
                    float eight[8];
                    dogEight(grey, tx, ty, x, y, across.data(), reach, eight);
                    for (int k = 0; k < 8; k++)
                        if (take[x + k]) row[x + k] = eight[k];
                }
#endif
                for (; x < width; x++)
                    if (take[x]) row[x] = dogAt(x, y);
            }
        });
    };
    takeDoG(~sure);
    cv::Mat paper, read;
    cv::Mat streamlineReach = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * near + 1, 2 * near + 1));
    cv::erode(dog >= paperFrom, paper, streamlineReach);
    cv::dilate(~paper, read, streamlineReach);
    takeDoG(read & sure);
    // The soft threshold of each walked pixel's mean along its streamline.
    auto finish = [&](const int *at, int n, const float *sum, const float *weights, uint8_t *outRow) {
        for (int l = 0; l < n; l++) {
            float h = sum[l] / weights[l];
            float v = h < 0 ? 1 + std::tanh(phi * h) : 1;
            outRow[at[l]] = cv::saturate_cast<uint8_t>(v * 255);
        }
    };
#if defined(__x86_64__)
    // Eight at once in AVX2 registers where the processor has them and the gathers' offsets fit.
    const bool vectorWalk = vectorInstructions() && tx.step[0] == ty.step[0] &&
                            double(height) * double(std::max(dog.step[0], tx.step[0])) < double(1u << 31);
    const bool wideWalk = vectorWalk && wideVectorInstructions();
#endif
    cv::parallel_for_(cv::Range(0, height), [&](const cv::Range &rows) {
        std::vector<int> walked;
        walked.reserve(width);
        for (int y = rows.start; y < rows.end; y++) {
            const float *tangentX = tx.ptr<float>(y), *tangentY = ty.ptr<float>(y), *dogRow = dog.ptr<float>(y);
            const uint8_t *paperRow = paper.ptr<uint8_t>(y);
            uint8_t *outRow = out.ptr<uint8_t>(y);
            walked.clear();
            for (int x = 0; x < width; x++) {
                if (paperRow[x]) outRow[x] = 255;
                else walked.push_back(x);
            }
            const int count = int(walked.size());
            int k0 = 0;
#if defined(__x86_64__)
            // Sixteen at once with AVX-512.
            for (; wideWalk && k0 + 16 <= count; k0 += 16) {
                float sum[16], weights[16];
                walkSixteen(dog, tx, ty, walked.data() + k0, y, steps, stepWeight.data(), sum, weights);
                finish(walked.data() + k0, 16, sum, weights, outRow);
            }
#endif
            for (; k0 < count; k0 += lanes) {
                const int n = std::min(lanes, count - k0);
                const int *at = walked.data() + k0;
                float sum[lanes], weights[lanes];
#if defined(__x86_64__)
                if (n == lanes && vectorWalk) {
                    walkEight(dog, tx, ty, at, y, steps, stepWeight.data(), sum, weights);
                    finish(at, n, sum, weights, outRow);
                    continue;
                }
#endif
                for (int l = 0; l < n; l++) {
                    sum[l] = stepWeight[0] * dogRow[at[l]];
                    weights[l] = stepWeight[0];
                }
                for (float sign : {1.0f, -1.0f}) {
                    float px[lanes], py[lanes], dx[lanes], dy[lanes], alive[lanes];
                    for (int l = 0; l < n; l++) {
                        px[l] = float(at[l]);
                        py[l] = float(y);
                        dx[l] = tangentX[at[l]] * sign;
                        dy[l] = tangentY[at[l]] * sign;
                        alive[l] = 1;
                    }
                    for (int i = 1; i <= steps; i++) {
                        const float w = stepWeight[i];
                        for (int l = 0; l < n; l++) {
                            px[l] += dx[l];
                            py[l] += dy[l];
                            bool inside = px[l] >= 0 && py[l] >= 0 && px[l] <= maxX && py[l] <= maxY;
                            alive[l] = inside ? alive[l] : 0.0f;
                            float counted = alive[l] * w;
                            sum[l] += counted * bilinear(dog, px[l], py[l]);
                            weights[l] += counted;
                            // Tangents have no sign: keep going the same way.
                            int ix = int(std::min(std::max(px[l], 0.0f), maxX) + 0.5f);
                            int iy = int(std::min(std::max(py[l], 0.0f), maxY) + 0.5f);
                            float nx = tx.ptr<float>(iy)[ix], ny = ty.ptr<float>(iy)[ix];
                            float flip = nx * dx[l] + ny * dy[l] < 0 ? -1.0f : 1.0f;
                            dx[l] = nx * flip;
                            dy[l] = ny * flip;
                        }
                    }
                }
                finish(at, n, sum, weights, outRow);
            }
        }
    });
}

} // namespace sk

cv::Mat sk::bilateral(const cv::Mat &rgb, float sigmaSpace, float sigmaColour, int iterations) {
    cv::Mat image = rgb.clone();
    int diameter = std::max(3, int(std::lround(sigmaSpace * 3)) | 1);
    for (int i = 0; i < std::max(1, iterations); i++) {
        cv::Mat next;
        cv::bilateralFilter(image, next, diameter, sigmaColour, sigmaSpace, cv::BORDER_REFLECT);
        image = next;
    }
    return image;
}

extern "C" int sk_region_matte(const unsigned char *rgb, int width, int height, const sk_face_seed *faces,
                               int count, int target, int region, float work_size, unsigned char *alpha,
                               char *error, int error_size) {
    return guarded(error, error_size, [&] {
        regionMatte(rgb, width, height, faces, count, target, region, work_size, alpha);
    });
}

extern "C" float sk_own_scale(const sk_face_seed *face) { return face ? FaceFrame::ownScale(*face) : 1; }

extern "C" int sk_region_bounds(const sk_face_seed *face, int region, float *bounds, char *error, int error_size) {
    return guarded(error, error_size, [&] {
        if (!face || !bounds) throw std::invalid_argument("no face");
        if (region < SK_REGION_FACE || region > SK_REGION_PERSON) throw std::invalid_argument("unknown region");
        float faceSize = std::min(face->width, face->height);
        if (!(faceSize > 0)) throw std::invalid_argument("empty face box");
        const FaceFrame frame = FaceFrame(*face, 1, 1).covering(region);
        cv::Rect2f all;
        bool first = true;
        for (const LimitShape &shape : limitShapes(region)) {
            cv::Rect2f r = shape.bounds(frame);
            all = first ? r : (all | r);
            first = false;
        }
        // Where the fade has fallen to nothing: it is twice the blurred limit less a fifth, and
        // a blurred edge is down to a tenth 1.28 sigma past it; and two pixels more, for the
        // limit drawn in whole pixels.
        float margin = 1.5f * fadeSigma(faceSize) + 2;
        bounds[0] = all.x - margin;
        bounds[1] = all.y - margin;
        bounds[2] = all.x + all.width + margin;
        bounds[3] = all.y + all.height + margin;
    });
}

extern "C" int sk_flow_lines(const unsigned char *grey, int width, int height, float flow_sigma, float sigma_c,
                             float sigma_m, float rho, float phi, unsigned char *out, char *error, int error_size) {
    return guarded(error, error_size, [&] {
        flowLines(grey, width, height, flow_sigma, sigma_c, sigma_m, rho, phi, out);
    });
}

namespace {
/// The widest vector instructions allowed (`sk_use_vector_instructions`): 0 none, 1 AVX2,
/// 2 AVX-512 too.
std::atomic<int> vectorInstructionsAllowed{2};
} // namespace

bool sk::vectorInstructions() {
#if defined(__x86_64__)
    static const bool has = __builtin_cpu_supports("avx2");
    return has && vectorInstructionsAllowed.load(std::memory_order_relaxed) >= 1;
#else
    return false;
#endif
}

bool sk::wideVectorInstructions() {
#if defined(__x86_64__)
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f");
    return has && vectorInstructionsAllowed.load(std::memory_order_relaxed) >= 2;
#else
    return false;
#endif
}

extern "C" int sk_use_vector_instructions(int level) {
    vectorInstructionsAllowed.store(std::min(std::max(level, 0), 2));
    return sk::wideVectorInstructions() ? 2 : sk::vectorInstructions() ? 1 : 0;
}
