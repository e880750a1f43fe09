/*
 * CVips: the few non-variadic entry points Swift needs over libvips' generic
 * operation API. Every libvips operation is reached by name through
 * sk_op_new / sk_op_set_* / sk_op_build / sk_op_get_*; no per-operation code
 * lives here. All logic stays in Swift (module Vips).
 */
#ifndef SKETCHEASE_CVIPS_H
#define SKETCHEASE_CVIPS_H

#include <vips/vips.h>

/* Start libvips once and block its untrusted loaders; returns 0 on success. */
int sk_vips_start(const char *program_name);

/* Take the text of libvips' global error buffer and clear it.
 * Returns a newly allocated string (free with g_free), never NULL. */
char *sk_vips_error_take(void);

/* How deep the calling thread is in FileErrors' sections (a thread-local count): a call
 * made within one is already covered by it. */
int sk_file_errors_depth(void);
void sk_file_errors_depth_add(int delta);

/* Append a message to libvips' error buffer (domain "sketchease"). */
void sk_vips_error_set(const char *message);

/* A new, unbuilt operation by nickname ("gaussblur") or NULL if unknown. */
VipsOperation *sk_op_new(const char *name);

/* Setters return 0 on success, -1 with the error buffer set. Values are
 * converted to the argument's type by GObject where a transform exists. */
int sk_op_set_image(VipsOperation *op, const char *name, VipsImage *image);
int sk_op_set_images(VipsOperation *op, const char *name, VipsImage **images, int count);
int sk_op_set_int(VipsOperation *op, const char *name, int value);
int sk_op_set_double(VipsOperation *op, const char *name, double value);
int sk_op_set_bool(VipsOperation *op, const char *name, int value);
int sk_op_set_string(VipsOperation *op, const char *name, const char *value);
int sk_op_set_doubles(VipsOperation *op, const char *name, const double *values, int count);
int sk_op_set_ints(VipsOperation *op, const char *name, const int *values, int count);
/* Enums and flags by their nickname, e.g. "multiply", "centre". */
int sk_op_set_enum(VipsOperation *op, const char *name, const char *nick);

/* Build through the operation cache. Consumes op; returns the built
 * operation (to read outputs from, then sk_op_finish) or NULL on error. */
VipsOperation *sk_op_build(VipsOperation *op);

/* Outputs of a built operation. Images come with a new reference. */
VipsImage *sk_op_get_image(VipsOperation *op, const char *name);
double sk_op_get_double(VipsOperation *op, const char *name);
int sk_op_get_int(VipsOperation *op, const char *name);

/* Drop the operation's references to its outputs, then the operation. */
void sk_op_finish(VipsOperation *op);

/* Metadata helpers over GValue-typed fields. */
int sk_image_has_field(VipsImage *image, const char *name);
int sk_image_get_int(VipsImage *image, const char *name, int fallback);
/* A NULL-terminated array of field names; free with g_strfreev. */
char **sk_image_fields(VipsImage *image);

/* Encodes an image in the format a suffix names, with options: ".jpg[Q=85,strip]".
 * Returns a newly allocated buffer (free with g_free) and its size, or NULL on error. */
void *sk_image_write_to_buffer(VipsImage *image, const char *suffix, size_t *size);

/* The pixels of an image held whole in memory (made from a buffer or computed into one):
 * its packed samples and their size in bytes; NULL for an image still to be computed. */
const void *sk_image_memory(VipsImage *image, size_t *size);

/* A new image held in memory over a copy of `size` bytes of packed samples, read as `type`. */
VipsImage *sk_image_from_memory(const void *data, size_t size, int width, int height, int bands,
                                VipsBandFormat format, VipsInterpretation type);

/* From now on memory freed by images stays with the process for the next image to reuse,
 * until sk_release_free_memory hands it back. */
void sk_keep_freed_memory(void);

/* Returns memory freed by earlier images to the system (glibc keeps it in its arenas). */
void sk_release_free_memory(void);

#endif
