/*
 * CAV: what Swift cannot reach in FFmpeg's libraries on its own (error-code macros, the
 * variadic log callback, side data needing casts) and the few per-pixel loops that must be
 * fast in debug builds too (rotating a frame, moving a face's pixels between 4:2:0 and RGB).
 * Demuxing, decoding, encoding and muxing are driven from Swift (module FFmpeg).
 */
#ifndef SKETCHEASE_CAV_H
#define SKETCHEASE_CAV_H

#include <stdint.h>
#include <stddef.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

/* Routes FFmpeg's log through a callback that keeps error-level messages for
 * sk_av_take_errors instead of printing them (set SKETCHEASE_FFMPEG_LOG=1 to print them too).
 * Safe to call more than once. */
void sk_av_start(void);

/* libavdevice and libavfilter are loaded when first needed, not at start (lazy.c): linked,
 * they cost every run ~70 more libraries. */

/* Loads libavdevice and registers its capture devices (v4l2, lavfi), once. 0, or -1 with the
 * reason in error. */
int sk_av_register_devices(char *error, size_t size);

/* Loads libavfilter, once: 0, or -1 with the reason in error. The sk_avfilter_* and
 * sk_av_buffer* calls below are libavfilter's own (the unused arguments left out), valid only
 * after it returned 0. */
int sk_avfilter_load(char *error, size_t size);
AVFilterGraph *sk_avfilter_graph_alloc(void);
void sk_avfilter_graph_free(AVFilterGraph **graph);
const AVFilter *sk_avfilter_get_by_name(const char *name);
int sk_avfilter_graph_create_filter(AVFilterContext **context, const AVFilter *filter, const char *name,
                                    const char *arguments, AVFilterGraph *graph);
AVFilterInOut *sk_avfilter_inout_alloc(void);
void sk_avfilter_inout_free(AVFilterInOut **inout);
int sk_avfilter_graph_parse(AVFilterGraph *graph, const char *description, AVFilterInOut **inputs, AVFilterInOut **outputs);
int sk_avfilter_graph_config(AVFilterGraph *graph);
AVRational sk_av_buffersink_get_time_base(const AVFilterContext *sink);
int sk_av_buffersrc_add_frame_flags(AVFilterContext *source, AVFrame *frame, int flags);
int sk_av_buffersink_get_frame(AVFilterContext *sink, AVFrame *frame);

int sk_av_error_again(void);    /* AVERROR(EAGAIN) */
int sk_av_error_eof(void);      /* AVERROR_EOF */
int sk_av_error_enomem(void);   /* AVERROR(ENOMEM) */
int64_t sk_av_nopts(void);      /* AV_NOPTS_VALUE */

/* av_strerror into buffer, never failing. */
void sk_av_error_text(int code, char *buffer, size_t size);

/* How many error-level messages FFmpeg logged since the last call (any thread); the last one
 * is copied into buffer (one line, no newline). */
int sk_av_take_errors(char *buffer, size_t size);

/* Clockwise quarter turns (0...3) that make the stream's pictures upright, from its display
 * matrix (a phone's portrait clip: 1). */
int sk_stream_quarter_turns(const AVStream *stream);

/* Y'CbCr <-> R'G'B' for one colour matrix and range, in 16.16 fixed point. */
typedef struct sk_yuv_matrix {
    int full_range;
    int64_t y_scale, v_to_r, u_to_g, v_to_g, u_to_b;
    int64_t r_to_y, g_to_y, b_to_y, r_to_u, g_to_u, b_to_u, r_to_v, g_to_v, b_to_v;
} sk_yuv_matrix;

/* The matrix for an AVColorSpace and AVColorRange; unspecified spaces are BT.709 from 720
 * rows up and BT.601 below (what players assume). */
sk_yuv_matrix sk_yuv_matrix_make(int colorspace, int range, int height);

/* Packed 8-bit RGB of the rectangle (x, y, width, height) of an 8-bit 4:2:0 planar frame;
 * x, y, width and height even and inside the frame. */
void sk_frame_read_rgb(const AVFrame *frame, int x, int y, int width, int height, uint8_t *rgb,
                       const sk_yuv_matrix *matrix);

/* Writes a processed copy of that rectangle back: pixels where `after` equals `before` keep
 * their original Y'CbCr exactly (so only what a style changed is re-encoded); the others
 * take `after`, mixed with the original by alpha/256 (0...256, for fades). Chroma is
 * rewritten for each 2x2 block with a changed pixel, from the block's mean. */
void sk_frame_write_rgb(AVFrame *frame, int x, int y, int width, int height, const uint8_t *before,
                        const uint8_t *after, int alpha, const sk_yuv_matrix *matrix);

/* Whether the two above may use AVX2 (where the processor has it; on by default): they give
 * the same bytes either way. Returns whether they now do. For tests. */
int sk_frame_use_vector_instructions(int on);

/* Turns an 8-bit planar frame clockwise by quarter_turns (1...3) into dst, which has the same
 * pixel format, its buffers allocated, and the turned size. */
void sk_frame_rotate(const AVFrame *src, AVFrame *dst, int quarter_turns);

/* Fills the columns right of `width` and rows below `height` of an 8-bit 4:2:0 planar frame
 * with copies of its last column and row (odd sizes padded to even). */
void sk_frame_pad_edges(AVFrame *frame, int width, int height);

/* `left` and `right` (8-bit 4:2:0 planar, the same size) side by side into `out`, twice as wide,
 * its buffers allocated. */
void sk_frame_side_by_side(const AVFrame *left, const AVFrame *right, AVFrame *out);

/* Where the block (x, y, width, height) of plane `before` went in plane `after` (8-bit, same
 * size and stride), searching offsets up to `radius` pixels each way: the offset with the least
 * mean absolute difference, refined below a pixel by a parabola through its neighbours' costs.
 * Writes the offset to dx, dy and returns that least cost (mean absolute difference, 0...255),
 * or -1 when the block does not fit in the plane. */
double sk_plane_track(const uint8_t *before, const uint8_t *after, int stride, int width, int height,
                      int x, int y, int block_width, int block_height, int radius, double *dx, double *dy);

#endif
