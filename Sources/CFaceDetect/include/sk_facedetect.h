/*
 * CFaceDetect: a C interface over OpenCV face detection (CenterFace through the DNN module,
 * or a Haar/LBP cascade). No C++ exception crosses this boundary: every failure becomes a
 * NULL or -1 return with a one-line message in `err`.
 */
#ifndef SKETCHEASE_FACEDETECT_H
#define SKETCHEASE_FACEDETECT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sk_face {
    float x, y, width, height; /* box in input-image pixel coordinates */
    float score;               /* confidence 0..1 */
    int has_landmarks;         /* 1 for CenterFace, 0 for a cascade */
    /* x0,y0,...,x4,y4: eye on the image's left, eye on the image's right, nose tip,
       mouth corner on the image's left, mouth corner on the image's right */
    float landmarks[10];
} sk_face;

typedef struct sk_detector sk_detector;

/* Opens the CenterFace ONNX model. NULL on failure, with a message in err. */
sk_detector *sk_detector_open_centerface(const char *onnx_path, char *err, size_t err_len);

/* Opens an OpenCV cascade classifier XML. NULL on failure, with a message in err. */
sk_detector *sk_detector_open_cascade(const char *cascade_xml_path, char *err, size_t err_len);

void sk_detector_close(sk_detector *detector);

/* Finds faces in packed 8-bit RGB pixels (`stride` bytes per row). Writes up to `capacity`
 * faces, best score first; stores the number found in *found; returns the number written or
 * -1 on error. Safe to call from several threads on one detector (runs are serialised).
 * `threshold` and `nms_iou` apply to CenterFace; a cascade reports score 1 for each face. */
int sk_detector_run(sk_detector *detector, const uint8_t *rgb, int width, int height, size_t stride,
                    float threshold, float nms_iou, sk_face *out, int capacity, int *found,
                    char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif
