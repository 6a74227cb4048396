#include <gd.h>
#include <gd_errors.h>
// libtiff's message handlers: gd reads TIFF through libtiff, which otherwise prints its errors
// to stderr and returns partial images. Imaging routes them into its per-thread diagnostics.
#include <tiffio.h>
