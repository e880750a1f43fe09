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

/* ---- Sixteen pixels at a time (AVX2) ------------------------------------------------------
 * The same integer arithmetic as the plain loops, lane for lane: 32-bit products and sums,
 * arithmetic shifts, C's division towards zero, and clipping to 0...255 by saturating packs
 * (a value outside 0...255 saturates to the same end in both packs). The mixes are computed in
 * 16 bits, where they fit: old (256 - alpha) + new alpha + 128 <= 255 x 256 + 128. */

static _Atomic int frame_vectors_allowed = 1;

int sk_frame_use_vector_instructions(int on) {
    frame_vectors_allowed = on != 0;
#if defined(__x86_64__)
    return on != 0 && __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

#if defined(__x86_64__)
#include <immintrin.h>

static int frame_vectors(void) { return frame_vectors_allowed && __builtin_cpu_supports("avx2"); }

/* pshufb masks between 16 packed RGB pixels (48 bytes, three registers) and one register per
 * channel: pack[chunk][channel] takes a chunk's bytes from a channel, unpack[channel][chunk]
 * a channel's bytes from a chunk (0x80: none). */
typedef struct {
    uint8_t pack[3][3][16], unpack[3][3][16];
} rgb_masks;

static rgb_masks the_masks;

static void make_masks(void) {
    for (int chunk = 0; chunk < 3; chunk++)
        for (int channel = 0; channel < 3; channel++)
            for (int i = 0; i < 16; i++) {
                int k = 16 * chunk + i; /* a byte of the packed pixels */
                the_masks.pack[chunk][channel][i] = k % 3 == channel ? (uint8_t) (k / 3) : 0x80;
                int j = 3 * i + channel; /* pixel i's byte of this channel */
                the_masks.unpack[channel][chunk][i] = j / 16 == chunk ? (uint8_t) (j % 16) : 0x80;
            }
}

static const rgb_masks *masks(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_masks);
    return &the_masks;
}

#define AVX2 __attribute__((target("avx2")))

static inline AVX2 __m128i mask_of(const uint8_t *m) { return _mm_loadu_si128((const __m128i *) m); }

/* Sixteen pixels' channels written as packed RGB. */
static inline AVX2 void store_rgb(uint8_t *out, __m128i r, __m128i g, __m128i b, const rgb_masks *m) {
    for (int chunk = 0; chunk < 3; chunk++) {
        __m128i bytes = _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(r, mask_of(m->pack[chunk][0])),
                                                  _mm_shuffle_epi8(g, mask_of(m->pack[chunk][1]))),
                                     _mm_shuffle_epi8(b, mask_of(m->pack[chunk][2])));
        _mm_storeu_si128((__m128i *) (out + 16 * chunk), bytes);
    }
}

/* One channel of sixteen packed RGB pixels. */
static inline AVX2 __m128i load_channel(const __m128i chunks[3], int channel, const rgb_masks *m) {
    return _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(chunks[0], mask_of(m->unpack[channel][0])),
                                     _mm_shuffle_epi8(chunks[1], mask_of(m->unpack[channel][1]))),
                        _mm_shuffle_epi8(chunks[2], mask_of(m->unpack[channel][2])));
}

/* Sixteen 32-bit values (two registers) clipped to bytes. */
static inline AVX2 __m128i clipped_bytes(__m256i low, __m256i high) {
    __m128i a = _mm_packs_epi32(_mm256_castsi256_si128(low), _mm256_extracti128_si256(low, 1));
    __m128i b = _mm_packs_epi32(_mm256_castsi256_si128(high), _mm256_extracti128_si256(high, 1));
    return _mm_packus_epi16(a, b);
}

/* Eight 32-bit values clipped to bytes, in the low half. */
static inline AVX2 __m128i clipped_bytes8(__m256i v) {
    __m128i a = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return _mm_packus_epi16(a, a);
}

/* `mix` for sixteen bytes. */
static inline AVX2 __m128i mixed(__m128i old, __m128i new, int alpha) {
    const __m128i keep = _mm_set1_epi16((short) (256 - alpha)), take = _mm_set1_epi16((short) alpha),
                  round = _mm_set1_epi16(128), zero = _mm_setzero_si128();
    __m128i low = _mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(old, zero), keep),
                                              _mm_mullo_epi16(_mm_unpacklo_epi8(new, zero), take)), round);
    __m128i high = _mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(old, zero), keep),
                                               _mm_mullo_epi16(_mm_unpackhi_epi8(new, zero), take)), round);
    return _mm_packus_epi16(_mm_srli_epi16(low, 8), _mm_srli_epi16(high, 8));
}

/* One row of sk_frame_read_rgb, sixteen pixels (eight chroma samples) at a time; returns the
 * pairs of pixels done. */
static AVX2 int read_row_vector(const uint8_t *yp, const uint8_t *up, const uint8_t *vp, uint8_t *out, int pairs,
                                int32_t y0, int32_t ys, int32_t vr, int32_t ug, int32_t vg, int32_t ub, const rgb_masks *m) {
    const __m256i half = _mm256_set1_epi32(1 << 15), c128 = _mm256_set1_epi32(128), vy0 = _mm256_set1_epi32(y0),
                  vys = _mm256_set1_epi32(ys), vvr = _mm256_set1_epi32(vr), vug = _mm256_set1_epi32(ug),
                  vvg = _mm256_set1_epi32(vg), vub = _mm256_set1_epi32(ub);
    const __m256i first = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3), second = _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7);
    int p = 0;
    for (; p + 8 <= pairs; p += 8) {
        __m256i u = _mm256_sub_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *) (up + p))), c128);
        __m256i v = _mm256_sub_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *) (vp + p))), c128);
        __m256i chroma[3] = {
            _mm256_add_epi32(_mm256_mullo_epi32(v, vvr), half),
            _mm256_sub_epi32(_mm256_sub_epi32(half, _mm256_mullo_epi32(u, vug)), _mm256_mullo_epi32(v, vvg)),
            _mm256_add_epi32(_mm256_mullo_epi32(u, vub), half),
        };
        __m128i luma = _mm_loadu_si128((const __m128i *) (yp + 2 * p));
        __m256i l0 = _mm256_mullo_epi32(_mm256_sub_epi32(_mm256_cvtepu8_epi32(luma), vy0), vys);
        __m256i l1 = _mm256_mullo_epi32(_mm256_sub_epi32(_mm256_cvtepu8_epi32(_mm_srli_si128(luma, 8)), vy0), vys);
        __m128i channel[3];
        for (int k = 0; k < 3; k++)
            channel[k] = clipped_bytes(_mm256_srai_epi32(_mm256_add_epi32(l0, _mm256_permutevar8x32_epi32(chroma[k], first)), 16),
                                       _mm256_srai_epi32(_mm256_add_epi32(l1, _mm256_permutevar8x32_epi32(chroma[k], second)), 16));
        store_rgb(out + 6 * p, channel[0], channel[1], channel[2], m);
    }
    return p;
}

/* Two rows of sk_frame_write_rgb, sixteen columns (eight chroma samples) at a time; returns
 * the columns done. `c` holds the matrix's R'G'B' to Y', Cb and Cr factors, in that order. */
static AVX2 int write_rows_vector(uint8_t *y_rows[2], uint8_t *up, uint8_t *vp, const uint8_t *rows_after[2],
                                  const uint8_t *rows_before[2], int width, int alpha, int32_t y0, const int32_t c[9],
                                  const rgb_masks *m) {
    const __m256i half = _mm256_set1_epi32(1 << 15), vy0 = _mm256_set1_epi32(y0), c128 = _mm256_set1_epi32(128),
                  three = _mm256_set1_epi32(3);
    const __m256i ry = _mm256_set1_epi32(c[0]), gy = _mm256_set1_epi32(c[1]), by = _mm256_set1_epi32(c[2]);
    const __m256i ru = _mm256_set1_epi32(c[3]), gu = _mm256_set1_epi32(c[4]), bu = _mm256_set1_epi32(c[5]);
    const __m256i rv = _mm256_set1_epi32(c[6]), gv = _mm256_set1_epi32(c[7]), bv = _mm256_set1_epi32(c[8]);
    const __m128i ones = _mm_set1_epi8(1), all = _mm_set1_epi8(-1), zero = _mm_setzero_si128();
    int col = 0;
    for (; col + 16 <= width; col += 16) {
        __m128i sums[3] = {zero, zero, zero}, changed = zero;
        for (int dy = 0; dy < 2; dy++) {
            const uint8_t *pa = rows_after[dy] + 3 * col, *pb = rows_before[dy] + 3 * col;
            const __m128i after[3] = {_mm_loadu_si128((const __m128i *) pa), _mm_loadu_si128((const __m128i *) (pa + 16)),
                                      _mm_loadu_si128((const __m128i *) (pa + 32))};
            const __m128i before[3] = {_mm_loadu_si128((const __m128i *) pb), _mm_loadu_si128((const __m128i *) (pb + 16)),
                                       _mm_loadu_si128((const __m128i *) (pb + 32))};
            __m128i same = all, channel[3];
            for (int k = 0; k < 3; k++) {
                channel[k] = load_channel(after, k, m);
                same = _mm_and_si128(same, _mm_cmpeq_epi8(channel[k], load_channel(before, k, m)));
                sums[k] = _mm_add_epi16(sums[k], _mm_maddubs_epi16(channel[k], ones)); /* pairs of pixels */
            }
            __m128i moved = _mm_xor_si128(same, all);
            changed = _mm_or_si128(changed, _mm_or_si128(moved, _mm_srli_epi16(moved, 8)));
            __m256i luma[2];
            for (int h = 0; h < 2; h++) {
                __m256i r = _mm256_cvtepu8_epi32(h ? _mm_srli_si128(channel[0], 8) : channel[0]);
                __m256i g = _mm256_cvtepu8_epi32(h ? _mm_srli_si128(channel[1], 8) : channel[1]);
                __m256i b = _mm256_cvtepu8_epi32(h ? _mm_srli_si128(channel[2], 8) : channel[2]);
                __m256i sum = _mm256_add_epi32(
                    _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(r, ry), _mm256_mullo_epi32(g, gy)), _mm256_mullo_epi32(b, by)), half);
                luma[h] = _mm256_add_epi32(_mm256_srai_epi32(sum, 16), vy0);
            }
            __m128i old = _mm_loadu_si128((const __m128i *) (y_rows[dy] + col));
            _mm_storeu_si128((__m128i *) (y_rows[dy] + col), _mm_blendv_epi8(old, mixed(old, clipped_bytes(luma[0], luma[1]), alpha), moved));
        }
        /* The blocks' means, as the plain loop takes them (C's division towards zero). */
        __m256i r = _mm256_cvtepi16_epi32(sums[0]), g = _mm256_cvtepi16_epi32(sums[1]), b = _mm256_cvtepi16_epi32(sums[2]);
        __m256i tu = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(r, ru), _mm256_mullo_epi32(g, gu)), _mm256_mullo_epi32(b, bu));
        __m256i tv = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(r, rv), _mm256_mullo_epi32(g, gv)), _mm256_mullo_epi32(b, bv));
        tu = _mm256_srai_epi32(_mm256_add_epi32(tu, _mm256_and_si256(_mm256_srai_epi32(tu, 31), three)), 2);
        tv = _mm256_srai_epi32(_mm256_add_epi32(tv, _mm256_and_si256(_mm256_srai_epi32(tv, 31), three)), 2);
        __m128i u = clipped_bytes8(_mm256_add_epi32(_mm256_srai_epi32(_mm256_add_epi32(tu, half), 16), c128));
        __m128i v = clipped_bytes8(_mm256_add_epi32(_mm256_srai_epi32(_mm256_add_epi32(tv, half), 16), c128));
        /* A block changed where either row's pair did: the low byte of each 16-bit lane. */
        __m128i unchanged = _mm_cmpeq_epi16(_mm_and_si128(changed, _mm_set1_epi16(0xff)), zero);
        __m128i block = _mm_xor_si128(_mm_packs_epi16(unchanged, unchanged), all);
        __m128i oldU = _mm_loadl_epi64((const __m128i *) (up + col / 2)), oldV = _mm_loadl_epi64((const __m128i *) (vp + col / 2));
        _mm_storel_epi64((__m128i *) (up + col / 2), _mm_blendv_epi8(oldU, mixed(oldU, u, alpha), block));
        _mm_storel_epi64((__m128i *) (vp + col / 2), _mm_blendv_epi8(oldV, mixed(oldV, v, alpha), block));
    }
    return col;
}
#endif

void sk_frame_read_rgb(const AVFrame *frame, int x, int y, int width, int height, uint8_t *rgb,
                       const sk_yuv_matrix *m) {
    const int32_t y0 = m->full_range ? 0 : 16, half = 1 << 15;
    const int32_t ys = (int32_t) m->y_scale, vr = (int32_t) m->v_to_r, ug = (int32_t) m->u_to_g,
                  vg = (int32_t) m->v_to_g, ub = (int32_t) m->u_to_b;
#if defined(__x86_64__)
    const rgb_masks *shuffles = frame_vectors() ? masks() : NULL;
#endif
    for (int row = 0; row < height; row++) {
        const uint8_t *yp = frame->data[0] + (ptrdiff_t) (y + row) * frame->linesize[0] + x;
        const uint8_t *up = frame->data[1] + (ptrdiff_t) ((y + row) >> 1) * frame->linesize[1] + (x >> 1);
        const uint8_t *vp = frame->data[2] + (ptrdiff_t) ((y + row) >> 1) * frame->linesize[2] + (x >> 1);
        uint8_t *out = rgb + (size_t) row * width * 3;
        int pair = 0;
#if defined(__x86_64__)
        if (shuffles) pair = read_row_vector(yp, up, vp, out, width / 2, y0, ys, vr, ug, vg, ub, shuffles);
#endif
        /* Two pixels (x is even, width too) to each chroma sample. */
        for (; pair < width / 2; pair++) {
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
#if defined(__x86_64__)
    const rgb_masks *shuffles = frame_vectors() ? masks() : NULL;
    const int32_t factors[9] = {ry, gy, by, ru, gu, bu, rv, gv, bv};
#endif
    for (int row = 0; row < height; row += 2) {
        uint8_t *y_rows[2] = {
            frame->data[0] + (ptrdiff_t) (y + row) * frame->linesize[0] + x,
            frame->data[0] + (ptrdiff_t) (y + row + 1) * frame->linesize[0] + x,
        };
        uint8_t *up = frame->data[1] + (ptrdiff_t) ((y + row) >> 1) * frame->linesize[1] + (x >> 1);
        uint8_t *vp = frame->data[2] + (ptrdiff_t) ((y + row) >> 1) * frame->linesize[2] + (x >> 1);
        const uint8_t *rows_after[2] = {after + (size_t) row * width * 3, after + (size_t) (row + 1) * width * 3};
        const uint8_t *rows_before[2] = {before + (size_t) row * width * 3, before + (size_t) (row + 1) * width * 3};
        int col = 0;
#if defined(__x86_64__)
        if (shuffles) col = write_rows_vector(y_rows, up, vp, rows_after, rows_before, width, alpha, y0, factors, shuffles);
#endif
        for (; col < width; col += 2) {
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
