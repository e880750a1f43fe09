/* libavdevice and libavfilter, loaded the first time they are needed rather than at start.
 *
 * Linked at start, the two bring some 70 libraries of their own (SDL, X11, PulseAudio, JACK,
 * FireWire, CD audio; filters' audio and image libraries) that every run of sketchease paid
 * for in relocations: ~30 ms and ~16 MB before its first photo. Only a camera or test source
 * (`--input-format v4l2|lavfi`, libavdevice) and the GIF and animated WebP shares (a palette
 * graph, libavfilter) use them. */
#include "CAV.h"

#include <dlfcn.h>
#include <libavdevice/version.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define SK_STRINGIFY2(x) #x
#define SK_STRINGIFY(x) SK_STRINGIFY2(x)

/* ---- libavdevice ------------------------------------------------------------------- */

static pthread_once_t devices_once = PTHREAD_ONCE_INIT;
static char devices_error[256];

static void register_devices(void) {
    const char *name = "libavdevice.so." SK_STRINGIFY(LIBAVDEVICE_VERSION_MAJOR);
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    void (*register_all)(void) = library ? (void (*)(void))dlsym(library, "avdevice_register_all") : NULL;
    if (!register_all) {
        const char *why = dlerror();
        snprintf(devices_error, sizeof devices_error, "cannot load %s (%s)", name, why ? why : "no avdevice_register_all");
        return;
    }
    register_all();
}

int sk_av_register_devices(char *error, size_t size) {
    sk_av_start();
    pthread_once(&devices_once, register_devices);
    if (!devices_error[0]) return 0;
    if (error && size) snprintf(error, size, "%s", devices_error);
    return -1;
}

/* ---- libavfilter ------------------------------------------------------------------- */

static struct {
    AVFilterGraph *(*graph_alloc)(void);
    void (*graph_free)(AVFilterGraph **);
    const AVFilter *(*get_by_name)(const char *);
    int (*graph_create_filter)(AVFilterContext **, const AVFilter *, const char *, const char *, void *, AVFilterGraph *);
    AVFilterInOut *(*inout_alloc)(void);
    void (*inout_free)(AVFilterInOut **);
    int (*graph_parse_ptr)(AVFilterGraph *, const char *, AVFilterInOut **, AVFilterInOut **, void *);
    int (*graph_config)(AVFilterGraph *, void *);
    AVRational (*buffersink_get_time_base)(const AVFilterContext *);
    int (*buffersrc_add_frame_flags)(AVFilterContext *, AVFrame *, int);
    int (*buffersink_get_frame)(AVFilterContext *, AVFrame *);
} filters;
static pthread_once_t filters_once = PTHREAD_ONCE_INIT;
static char filters_error[256];

static void load_filters(void) {
    const char *name = "libavfilter.so." SK_STRINGIFY(LIBAVFILTER_VERSION_MAJOR);
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(filters_error, sizeof filters_error, "cannot load %s (%s)", name, why ? why : "unknown");
        return;
    }
    const char *missing = NULL;
#define SK_FIND(field, symbol) \
    if (!(*(void **)&filters.field = dlsym(library, symbol)) && !missing) missing = symbol;
    SK_FIND(graph_alloc, "avfilter_graph_alloc")
    SK_FIND(graph_free, "avfilter_graph_free")
    SK_FIND(get_by_name, "avfilter_get_by_name")
    SK_FIND(graph_create_filter, "avfilter_graph_create_filter")
    SK_FIND(inout_alloc, "avfilter_inout_alloc")
    SK_FIND(inout_free, "avfilter_inout_free")
    SK_FIND(graph_parse_ptr, "avfilter_graph_parse_ptr")
    SK_FIND(graph_config, "avfilter_graph_config")
    SK_FIND(buffersink_get_time_base, "av_buffersink_get_time_base")
    SK_FIND(buffersrc_add_frame_flags, "av_buffersrc_add_frame_flags")
    SK_FIND(buffersink_get_frame, "av_buffersink_get_frame")
#undef SK_FIND
    if (missing) {
        snprintf(filters_error, sizeof filters_error, "%s has no %s", name, missing);
        memset(&filters, 0, sizeof filters);
    }
}

int sk_avfilter_load(char *error, size_t size) {
    pthread_once(&filters_once, load_filters);
    if (!filters_error[0]) return 0;
    if (error && size) snprintf(error, size, "%s", filters_error);
    return -1;
}

AVFilterGraph *sk_avfilter_graph_alloc(void) { return filters.graph_alloc(); }
void sk_avfilter_graph_free(AVFilterGraph **graph) { filters.graph_free(graph); }
const AVFilter *sk_avfilter_get_by_name(const char *name) { return filters.get_by_name(name); }
int sk_avfilter_graph_create_filter(AVFilterContext **context, const AVFilter *filter, const char *name,
                                    const char *arguments, AVFilterGraph *graph) {
    return filters.graph_create_filter(context, filter, name, arguments, NULL, graph);
}
AVFilterInOut *sk_avfilter_inout_alloc(void) { return filters.inout_alloc(); }
void sk_avfilter_inout_free(AVFilterInOut **inout) { filters.inout_free(inout); }
int sk_avfilter_graph_parse(AVFilterGraph *graph, const char *description, AVFilterInOut **inputs, AVFilterInOut **outputs) {
    return filters.graph_parse_ptr(graph, description, inputs, outputs, NULL);
}
int sk_avfilter_graph_config(AVFilterGraph *graph) { return filters.graph_config(graph, NULL); }
AVRational sk_av_buffersink_get_time_base(const AVFilterContext *sink) { return filters.buffersink_get_time_base(sink); }
int sk_av_buffersrc_add_frame_flags(AVFilterContext *source, AVFrame *frame, int flags) {
    return filters.buffersrc_add_frame_flags(source, frame, flags);
}
int sk_av_buffersink_get_frame(AVFilterContext *sink, AVFrame *frame) { return filters.buffersink_get_frame(sink, frame); }
