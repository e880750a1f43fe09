#include "CVips.h"

#include <limits.h>
#include <malloc.h>

#include <vips/vector.h>

static void drop_message(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void) domain; (void) level; (void) message; (void) data;
}

int sk_vips_start(const char *program_name) {
#ifdef __GLIBC__
    /* glibc gives every thread that allocates its own heap arena; libvips' worker threads
     * then keep tens of megabytes of freed memory each. Two arenas (what the libvips docs
     * suggest for servers) measured 25 MB less peak memory per 12 MP photo, no slower. */
    mallopt(M_ARENA_MAX, 2);
#endif
    if (VIPS_INIT(program_name ? program_name : "sketchease"))
        return -1;
    /* libvips prints decoder warnings ("Corrupt JPEG data ...") straight to stderr; real
     * failures reach the user as errors, so the warnings are only noise. Set
     * SKETCHEASE_VIPS_WARNINGS=1 to see them. */
    if (!g_getenv("SKETCHEASE_VIPS_WARNINGS"))
        g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, drop_message, NULL);
    /* Loaders libvips marks untrusted (ImageMagick, matload, ...) are not fuzzed for hostile
     * input; a photo tool has no need for them. */
    vips_block_untrusted_set(TRUE);
    /* libvips runs some operations (8-bit convolutions and morphology among them) through
     * programs that liborc compiles at run time. Debian 12's liborc 0.4.33 keeps the memory of
     * those programs in one list that it does not lock: when two threads build and free such
     * operations at once (two faces drawn side by side, or two photos), it can crash
     * (SIGSEGV in orc_code_allocate_codemem's chunk list, seen in `video -f graphite`). Off,
     * libvips uses its own C loops instead. SKETCHEASE_VIPS_ORC=1 turns it back on. */
    if (!g_getenv("SKETCHEASE_VIPS_ORC"))
        vips_vector_set_enabled(FALSE);
    return 0;
}

char *sk_vips_error_take(void) {
    char *text = g_strdup(vips_error_buffer());
    vips_error_clear();
    return text;
}

static _Thread_local int file_errors_depth = 0;

int sk_file_errors_depth(void) { return file_errors_depth; }

void sk_file_errors_depth_add(int delta) { file_errors_depth += delta; }

void sk_vips_error_set(const char *message) {
    vips_error("sketchease", "%s", message);
}

VipsOperation *sk_op_new(const char *name) {
    return vips_operation_new(name);
}

/* Set one property from a GValue, checking the argument exists first so a
 * typo is an error, not a GLib warning. */
static int set_value(VipsOperation *op, const char *name, const GValue *value) {
    GParamSpec *spec = g_object_class_find_property(G_OBJECT_GET_CLASS(op), name);
    if (!spec) {
        vips_error("sketchease", "operation %s has no argument \"%s\"",
                   VIPS_OBJECT_GET_CLASS(op)->nickname, name);
        return -1;
    }
    if (!g_value_type_transformable(G_VALUE_TYPE(value), G_PARAM_SPEC_VALUE_TYPE(spec))) {
        vips_error("sketchease", "argument \"%s\" of %s cannot take a %s", name,
                   VIPS_OBJECT_GET_CLASS(op)->nickname, G_VALUE_TYPE_NAME(value));
        return -1;
    }
    g_object_set_property(G_OBJECT(op), name, value);
    return 0;
}

int sk_op_set_image(VipsOperation *op, const char *name, VipsImage *image) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, VIPS_TYPE_IMAGE);
    g_value_set_object(&value, image);
    int result = set_value(op, name, &value);
    g_value_unset(&value);
    return result;
}

int sk_op_set_images(VipsOperation *op, const char *name, VipsImage **images, int count) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, VIPS_TYPE_ARRAY_IMAGE);
    VipsArrayImage *array = vips_array_image_new(images, count);
    g_value_set_boxed(&value, array);
    vips_area_unref(VIPS_AREA(array));
    int result = set_value(op, name, &value);
    g_value_unset(&value);
    return result;
}

int sk_op_set_int(VipsOperation *op, const char *name, int v) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, G_TYPE_INT);
    g_value_set_int(&value, v);
    int result = set_value(op, name, &value);
    g_value_unset(&value);
    return result;
}

int sk_op_set_double(VipsOperation *op, const char *name, double v) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, G_TYPE_DOUBLE);
    g_value_set_double(&value, v);
    int result = set_value(op, name, &value);
    g_value_unset(&value);
    return result;
}

int sk_op_set_bool(VipsOperation *op, const char *name, int v) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, G_TYPE_BOOLEAN);
    g_value_set_boolean(&value, v ? TRUE : FALSE);
    int result = set_value(op, name, &value);
    g_value_unset(&value);
    return result;
}

int sk_op_set_string(VipsOperation *op, const char *name, const char *v) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, G_TYPE_STRING);
    g_value_set_string(&value, v);
    int result = set_value(op, name, &value);
    g_value_unset(&value);
    return result;
}

int sk_op_set_doubles(VipsOperation *op, const char *name, const double *values, int count) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, VIPS_TYPE_ARRAY_DOUBLE);
    vips_value_set_array_double(&value, values, count);
    int result = set_value(op, name, &value);
    g_value_unset(&value);
    return result;
}

int sk_op_set_ints(VipsOperation *op, const char *name, const int *values, int count) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, VIPS_TYPE_ARRAY_INT);
    vips_value_set_array_int(&value, values, count);
    int result = set_value(op, name, &value);
    g_value_unset(&value);
    return result;
}

int sk_op_set_enum(VipsOperation *op, const char *name, const char *nick) {
    GParamSpec *spec = g_object_class_find_property(G_OBJECT_GET_CLASS(op), name);
    if (!spec) {
        vips_error("sketchease", "operation %s has no argument \"%s\"",
                   VIPS_OBJECT_GET_CLASS(op)->nickname, name);
        return -1;
    }
    GType type = G_PARAM_SPEC_VALUE_TYPE(spec);
    GValue value = G_VALUE_INIT;
    g_value_init(&value, type);
    if (G_TYPE_IS_ENUM(type)) {
        int v = vips_enum_from_nick("sketchease", type, nick);
        if (v < 0) { g_value_unset(&value); return -1; }
        g_value_set_enum(&value, v);
    } else if (G_TYPE_IS_FLAGS(type)) {
        int v = vips_flags_from_nick("sketchease", type, nick);
        if (v < 0) { g_value_unset(&value); return -1; }
        g_value_set_flags(&value, (guint) v);
    } else {
        g_value_unset(&value);
        vips_error("sketchease", "argument \"%s\" is not an enum", name);
        return -1;
    }
    g_object_set_property(G_OBJECT(op), name, &value);
    g_value_unset(&value);
    return 0;
}

VipsOperation *sk_op_build(VipsOperation *op) {
    if (vips_cache_operation_buildp(&op)) {
        vips_object_unref_outputs(VIPS_OBJECT(op));
        g_object_unref(op);
        return NULL;
    }
    return op;
}

VipsImage *sk_op_get_image(VipsOperation *op, const char *name) {
    VipsImage *image = NULL;
    g_object_get(G_OBJECT(op), name, &image, NULL);
    return image;
}

double sk_op_get_double(VipsOperation *op, const char *name) {
    double v = 0;
    g_object_get(G_OBJECT(op), name, &v, NULL);
    return v;
}

int sk_op_get_int(VipsOperation *op, const char *name) {
    int v = 0;
    g_object_get(G_OBJECT(op), name, &v, NULL);
    return v;
}

void sk_op_finish(VipsOperation *op) {
    vips_object_unref_outputs(VIPS_OBJECT(op));
    g_object_unref(op);
}

int sk_image_has_field(VipsImage *image, const char *name) {
    return vips_image_get_typeof(image, name) != 0;
}

int sk_image_get_int(VipsImage *image, const char *name, int fallback) {
    int v;
    if (vips_image_get_typeof(image, name) == 0 || vips_image_get_int(image, name, &v))
        return fallback;
    return v;
}

char **sk_image_fields(VipsImage *image) {
    return vips_image_get_fields(image);
}

void *sk_image_write_to_buffer(VipsImage *image, const char *suffix, size_t *size) {
    void *buffer = NULL;
    *size = 0;
    if (vips_image_write_to_buffer(image, suffix, &buffer, size, NULL) != 0) return NULL;
    return buffer;
}

const void *sk_image_memory(VipsImage *image, size_t *size) {
    *size = 0;
    if ((image->dtype != VIPS_IMAGE_SETBUF && image->dtype != VIPS_IMAGE_SETBUF_FOREIGN) || !image->data) return NULL;
    *size = VIPS_IMAGE_SIZEOF_IMAGE(image);
    return image->data;
}

VipsImage *sk_image_from_memory(const void *data, size_t size, int width, int height, int bands,
                                VipsBandFormat format, VipsInterpretation type) {
    VipsImage *image = vips_image_new_from_memory_copy(data, size, width, height, bands, format);
    /* Fresh and not yet shared: its interpretation can be set in place, where a copy
     * operation would make it a pipeline to compute again. */
    if (image) image->Type = type;
    return image;
}

void sk_keep_freed_memory(void) {
#ifdef __GLIBC__
    /* glibc maps each large block (a decoded photo, a layer of the face network) on its own
     * and unmaps it when freed, so every photo of a batch faulted its ~100 MB of working
     * memory in afresh: ~35k page faults a photo, ~0.14 s of system time (~13 % of its CPU).
     * Keep every block in the heaps and never trim on free: the next photo reuses the pages
     * the last one freed, until sk_release_free_memory hands them back. */
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
#endif
}

void sk_release_free_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}
