#ifndef CLIBVIPS_SHIM_H
#define CLIBVIPS_SHIM_H
#include <vips/vips.h>
#endif
