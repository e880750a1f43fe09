#include "CAV.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <math.h>

/* ---- Start-up and logging ---------------------------------------------------------- */

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int log_errors = 0;
static char log_last[512];
static int log_print = 0;

static void log_callback(void *context, int level, const char *format, va_list args) {
    if (level > AV_LOG_ERROR) return;
    char line[512];
    int prefix = 1;
    av_log_format_line(context, level, format, args, line, sizeof line, &prefix);
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    pthread_mutex_lock(&log_lock);
    log_errors++;
    memcpy(log_last, line, n + 1);
    pthread_mutex_unlock(&log_lock);
    if (log_print) fprintf(stderr, "ffmpeg: %s\n", line);
}

static pthread_once_t started = PTHREAD_ONCE_INIT;

static void start_once(void) {
    const char *print = getenv("SKETCHEASE_FFMPEG_LOG");
    log_print = print && *print && strcmp(print, "0") != 0;
    av_log_set_callback(log_callback);
}

void sk_av_start(void) { pthread_once(&started, start_once); }

int sk_av_error_again(void) { return AVERROR(EAGAIN); }
int sk_av_error_eof(void) { return AVERROR_EOF; }
int sk_av_error_enomem(void) { return AVERROR(ENOMEM); }
int64_t sk_av_nopts(void) { return AV_NOPTS_VALUE; }

void sk_av_error_text(int code, char *buffer, size_t size) {
    if (!buffer || size == 0) return;
    if (av_strerror(code, buffer, size) < 0) snprintf(buffer, size, "error %d", code);
}

int sk_av_take_errors(char *buffer, size_t size) {
    pthread_mutex_lock(&log_lock);
    int count = log_errors;
    if (buffer && size > 0) snprintf(buffer, size, "%s", log_last);
    log_errors = 0;
    log_last[0] = 0;
    pthread_mutex_unlock(&log_lock);
    return count;
}

int sk_stream_quarter_turns(const AVStream *stream) {
    const int32_t *matrix = (const int32_t *) av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (!matrix) return 0;
    double counterclockwise = av_display_rotation_get(matrix);
    if (counterclockwise != counterclockwise) return 0; /* NaN: a degenerate matrix */
    long clockwise = lround(-counterclockwise / 90.0);
    return (int) (((clockwise % 4) + 4) % 4);
}

/* ---- Colour ------------------------------------------------------------------------ */

#define ONE 65536.0

sk_yuv_matrix sk_yuv_matrix_make(int colorspace, int range, int height) {
    double kr, kb;
    switch (colorspace) {
    case AVCOL_SPC_BT709: kr = 0.2126; kb = 0.0722; break;
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M: kr = 0.299; kb = 0.114; break;
    case AVCOL_SPC_SMPTE240M: kr = 0.212; kb = 0.087; break;
    case AVCOL_SPC_FCC: kr = 0.30; kb = 0.11; break;
    case AVCOL_SPC_BT2020_NCL:
    case AVCOL_SPC_BT2020_CL: kr = 0.2627; kb = 0.0593; break;
    default:
        if (height >= 720) { kr = 0.2126; kb = 0.0722; } else { kr = 0.299; kb = 0.114; }
    }
    double kg = 1 - kr - kb;
    sk_yuv_matrix m;
    m.full_range = range == AVCOL_RANGE_JPEG;
    double ys = m.full_range ? 1.0 : 255.0 / 219.0;  /* Y' steps to RGB steps */
    double cs = m.full_range ? 1.0 : 255.0 / 224.0;  /* Cb/Cr steps to RGB steps */
    m.y_scale = (int64_t) (ys * ONE + 0.5);
    m.v_to_r = (int64_t) (2 * (1 - kr) * cs * ONE + 0.5);
    m.u_to_g = (int64_t) (2 * (1 - kb) * kb / kg * cs * ONE + 0.5);
    m.v_to_g = (int64_t) (2 * (1 - kr) * kr / kg * cs * ONE + 0.5);
    m.u_to_b = (int64_t) (2 * (1 - kb) * cs * ONE + 0.5);
    double yo = 1 / ys, co = 1 / cs;
    m.r_to_y = (int64_t) (kr * yo * ONE + 0.5);
    m.g_to_y = (int64_t) (kg * yo * ONE + 0.5);
    m.b_to_y = (int64_t) (kb * yo * ONE + 0.5);
    m.r_to_u = (int64_t) (-kr / (2 * (1 - kb)) * co * ONE - 0.5);
    m.g_to_u = (int64_t) (-kg / (2 * (1 - kb)) * co * ONE - 0.5);
    m.b_to_u = (int64_t) (0.5 * co * ONE + 0.5);
    m.r_to_v = (int64_t) (0.5 * co * ONE + 0.5);
    m.g_to_v = (int64_t) (-kg / (2 * (1 - kr)) * co * ONE - 0.5);
    m.b_to_v = (int64_t) (-kb / (2 * (1 - kr)) * co * ONE - 0.5);
    return m;
}

/* The conversions below work in 32-bit integers: with 16.16 coefficients of at most 2.15 (the
 * largest, Cb to B for limited-range BT.2020, is 2.14) every sum stays within 2^26, for a
 * pixel and for a 2x2 block's four, so they give what 64-bit arithmetic gives, and the
 * compiler can do several pixels at once. */
static inline uint8_t clip8i(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint8_t) v; }

void sk_frame_read_rgb(const AVFrame *frame, int x, int y, int width, int height, uint8_t *rgb,
                       const sk_yuv_matrix *m) {
    const int32_t y0 = m->full_range ? 0 : 16, half = 1 << 15;
    const int32_t ys = (int32_t) m->y_scale, vr = (int32_t) m->v_to_r, ug = (int32_t) m->u_to_g,
                  vg = (int32_t) m->v_to_g, ub = (int32_t) m->u_to_b;
    for (int row = 0; row < height; row++) {
        const uint8_t *yp = frame->data[0] + (ptrdiff_t) (y + row) * frame->linesize[0] + x;
        const uint8_t *up = frame->data[1] + (ptrdiff_t) ((y + row) >> 1) * frame->linesize[1] + (x >> 1);
        const uint8_t *vp = frame->data[2] + (ptrdiff_t) ((y + row) >> 1) * frame->linesize[2] + (x >> 1);
        uint8_t *out = rgb + (size_t) row * width * 3;
        /* Two pixels (x is even, width too) to each chroma sample. */
        for (int pair = 0; pair < width / 2; pair++) {
            const int32_t u = (int32_t) up[pair] - 128, v = (int32_t) vp[pair] - 128;
            const int32_t r = v * vr + half, g = half - u * ug - v * vg, b = u * ub + half;
            for (int k = 0; k < 2; k++) {
                const int32_t l = ((int32_t) yp[2 * pair + k] - y0) * ys;
                out[6 * pair + 3 * k] = clip8i((l + r) >> 16);
                out[6 * pair + 3 * k + 1] = clip8i((l + g) >> 16);
                out[6 * pair + 3 * k + 2] = clip8i((l + b) >> 16);
            }
        }
    }
}

static inline int same(const uint8_t *a, const uint8_t *b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

static inline uint8_t mix(uint8_t old, int32_t new, int alpha) {
    return (uint8_t) (((int) old * (256 - alpha) + (int) clip8i(new) * alpha + 128) >> 8);
}

void sk_frame_write_rgb(AVFrame *frame, int x, int y, int width, int height, const uint8_t *before,
                        const uint8_t *after, int alpha, const sk_yuv_matrix *m) {
    if (alpha <= 0) return;
    if (alpha > 256) alpha = 256;
    const int32_t y0 = m->full_range ? 0 : 16, half = 1 << 15;
    const int32_t ry = (int32_t) m->r_to_y, gy = (int32_t) m->g_to_y, by = (int32_t) m->b_to_y;
    const int32_t ru = (int32_t) m->r_to_u, gu = (int32_t) m->g_to_u, bu = (int32_t) m->b_to_u;
    const int32_t rv = (int32_t) m->r_to_v, gv = (int32_t) m->g_to_v, bv = (int32_t) m->b_to_v;
    for (int row = 0; row < height; row += 2) {
        uint8_t *y_rows[2] = {
            frame->data[0] + (ptrdiff_t) (y + row) * frame->linesize[0] + x,
            frame->data[0] + (ptrdiff_t) (y + row + 1) * frame->linesize[0] + x,
        };
        uint8_t *up = frame->data[1] + (ptrdiff_t) ((y + row) >> 1) * frame->linesize[1] + (x >> 1);
        uint8_t *vp = frame->data[2] + (ptrdiff_t) ((y + row) >> 1) * frame->linesize[2] + (x >> 1);
        const uint8_t *rows_after[2] = {after + (size_t) row * width * 3, after + (size_t) (row + 1) * width * 3};
        const uint8_t *rows_before[2] = {before + (size_t) row * width * 3, before + (size_t) (row + 1) * width * 3};
        for (int col = 0; col < width; col += 2) {
            int changed = 0;
            int32_t r = 0, g = 0, b = 0;
            for (int dy = 0; dy < 2; dy++) {
                for (int dx = 0; dx < 2; dx++) {
                    const uint8_t *p = rows_after[dy] + 3 * (col + dx), *o = rows_before[dy] + 3 * (col + dx);
                    r += p[0]; g += p[1]; b += p[2];
                    /* Without a branch: the mix is computed either way and kept where the
                     * pixel changed. */
                    const int moved = !same(o, p);
                    const int32_t luma = ((p[0] * ry + p[1] * gy + p[2] * by + half) >> 16) + y0;
                    uint8_t *target = y_rows[dy] + col + dx;
                    const uint8_t mixed = mix(*target, luma, alpha);
                    *target = moved ? mixed : *target;
                    changed |= moved;
                }
            }
            if (!changed) continue;
            /* The block's mean colour, in 16.16 after the /4. */
            int32_t u = ((r * ru + g * gu + b * bu) / 4 + half) >> 16;
            int32_t v = ((r * rv + g * gv + b * bv) / 4 + half) >> 16;
            up[col >> 1] = mix(up[col >> 1], u + 128, alpha);
            vp[col >> 1] = mix(vp[col >> 1], v + 128, alpha);
        }
    }
}

/* ---- Geometry ---------------------------------------------------------------------- */

static void rotate_plane(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst, int dst_stride, int turns) {
    /* Blocks of 32x32 keep both the reads and the writes within a few cache lines. */
    for (int by = 0; by < h; by += 32) {
        for (int bx = 0; bx < w; bx += 32) {
            int ey = by + 32 < h ? by + 32 : h, ex = bx + 32 < w ? bx + 32 : w;
            for (int sy = by; sy < ey; sy++) {
                const uint8_t *line = src + (ptrdiff_t) sy * src_stride;
                for (int sx = bx; sx < ex; sx++) {
                    int dx, dy;
                    switch (turns) {
                    case 1: dx = h - 1 - sy; dy = sx; break;          /* clockwise */
                    case 2: dx = w - 1 - sx; dy = h - 1 - sy; break;  /* upside down */
                    default: dx = sy; dy = w - 1 - sx; break;         /* counterclockwise */
                    }
                    dst[(ptrdiff_t) dy * dst_stride + dx] = line[sx];
                }
            }
        }
    }
}

void sk_frame_rotate(const AVFrame *src, AVFrame *dst, int quarter_turns) {
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get((enum AVPixelFormat) src->format);
    if (!desc) return;
    int turns = ((quarter_turns % 4) + 4) % 4;
    for (int plane = 0; plane < 3 && src->data[plane]; plane++) {
        int sw = src->width, sh = src->height;
        if (plane > 0) {
            sw = AV_CEIL_RSHIFT(sw, desc->log2_chroma_w);
            sh = AV_CEIL_RSHIFT(sh, desc->log2_chroma_h);
        }
        rotate_plane(src->data[plane], src->linesize[plane], sw, sh, dst->data[plane], dst->linesize[plane], turns);
    }
}

void sk_frame_pad_edges(AVFrame *frame, int width, int height) {
    for (int plane = 0; plane < 3; plane++) {
        int shift = plane ? 1 : 0;
        int w = AV_CEIL_RSHIFT(width, shift), h = AV_CEIL_RSHIFT(height, shift);
        int fw = AV_CEIL_RSHIFT(frame->width, shift), fh = AV_CEIL_RSHIFT(frame->height, shift);
        uint8_t *data = frame->data[plane];
        int stride = frame->linesize[plane];
        for (int row = 0; row < h && w < fw; row++)
            memset(data + (ptrdiff_t) row * stride + w, data[(ptrdiff_t) row * stride + w - 1], (size_t) (fw - w));
        for (int row = h; row < fh; row++)
            memcpy(data + (ptrdiff_t) row * stride, data + (ptrdiff_t) (h - 1) * stride, (size_t) fw);
    }
}

void sk_frame_side_by_side(const AVFrame *left, const AVFrame *right, AVFrame *out) {
    for (int plane = 0; plane < 3; plane++) {
        int shift = plane ? 1 : 0;
        int w = AV_CEIL_RSHIFT(left->width, shift), h = AV_CEIL_RSHIFT(left->height, shift);
        for (int row = 0; row < h; row++) {
            uint8_t *dst = out->data[plane] + (ptrdiff_t) row * out->linesize[plane];
            memcpy(dst, left->data[plane] + (ptrdiff_t) row * left->linesize[plane], (size_t) w);
            memcpy(dst + w, right->data[plane] + (ptrdiff_t) row * right->linesize[plane], (size_t) w);
        }
    }
}

/* ---- Motion ------------------------------------------------------------------------ */

static double block_cost(const uint8_t *before, const uint8_t *after, int stride, int x, int y, int w, int h,
                         int ox, int oy) {
    unsigned long sum = 0;
    for (int row = 0; row < h; row++) {
        const uint8_t *a = before + (ptrdiff_t) (y + row) * stride + x;
        const uint8_t *b = after + (ptrdiff_t) (y + oy + row) * stride + x + ox;
        for (int col = 0; col < w; col++) sum += (unsigned) abs((int) a[col] - (int) b[col]);
    }
    return (double) sum / ((double) w * h);
}

static double parabola(double left, double centre, double right) {
    double curve = left - 2 * centre + right;
    if (curve <= 1e-9) return 0;
    double offset = 0.5 * (left - right) / curve;
    return offset < -0.5 ? -0.5 : offset > 0.5 ? 0.5 : offset;
}

double sk_plane_track(const uint8_t *before, const uint8_t *after, int stride, int width, int height,
                      int x, int y, int w, int h, int radius, double *dx, double *dy) {
    *dx = 0; *dy = 0;
    if (w < 4 || h < 4 || x < 0 || y < 0 || x + w > width || y + h > height) return -1;
    int best_x = 0, best_y = 0;
    double best = -1;
    for (int oy = -radius; oy <= radius; oy++) {
        if (y + oy < 0 || y + oy + h > height) continue;
        for (int ox = -radius; ox <= radius; ox++) {
            if (x + ox < 0 || x + ox + w > width) continue;
            double cost = block_cost(before, after, stride, x, y, w, h, ox, oy);
            /* Ties go to the smaller move: a flat block stays put. */
            if (best < 0 || cost < best - 1e-9 || (cost <= best + 1e-9 && abs(ox) + abs(oy) < abs(best_x) + abs(best_y))) {
                best = cost; best_x = ox; best_y = oy;
            }
        }
    }
    if (best < 0) return -1;
    double fx = 0, fy = 0;
    if (best_x > -radius && best_x < radius && x + best_x - 1 >= 0 && x + best_x + 1 + w <= width)
        fx = parabola(block_cost(before, after, stride, x, y, w, h, best_x - 1, best_y), best,
                      block_cost(before, after, stride, x, y, w, h, best_x + 1, best_y));
    if (best_y > -radius && best_y < radius && y + best_y - 1 >= 0 && y + best_y + 1 + h <= height)
        fy = parabola(block_cost(before, after, stride, x, y, w, h, best_x, best_y - 1), best,
                      block_cost(before, after, stride, x, y, w, h, best_x, best_y + 1));
    *dx = best_x + fx;
    *dy = best_y + fy;
    return best;
}
