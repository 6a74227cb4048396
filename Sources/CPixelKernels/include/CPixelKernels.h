#ifndef CASCADE_PIXEL_KERNELS_H
#define CASCADE_PIXEL_KERNELS_H

// Vector kernels for the pixel loops Swift's compiler does not vectorise well (table lookups
// need AVX2's gathers). Each one converts what it can and says how much; the Swift caller
// does the rest with its own scalar code, which is also the path on processors without AVX2.

#include <stddef.h>
#include <stdint.h>

/// The tables of a matrix-shaper colour conversion (see MatrixShaperTables.swift), borrowed
/// for one call.
typedef struct {
    /// Per input channel (red, green, blue), the linear light of each 8-bit value (256 each).
    const int32_t *red, *green, *blue;
    /// Row-major 3x3 matrix from source to target linear light, fixed point.
    int32_t matrix[9];
    /// 8-bit results by index 0...top, followed by at least 3 more readable bytes (the kernel
    /// reads 4 bytes at each index).
    const uint8_t *output;
    int32_t top;
    /// Right shift from a matrix row's sum to an output index, and the half added before it.
    int32_t shift, half;
} cascade_matrix_shaper;

/// Whether this processor runs the vector kernels (AVX2 on x86-64); 0 elsewhere.
int cascade_pixel_kernels_vector(void);

/// Converts the first pixels of `pixels` (gd pixels, 0xAARRGGBB in each int32, alpha kept) in
/// place, eight at a time, and returns how many it converted: a multiple of 8 no larger than
/// `count`, 0 without AVX2. Every matrix row's sum plus `half` must fit in 32 bits for inputs of
/// 0...65536 (the caller checks).
size_t cascade_matrix_shaper_apply(const cascade_matrix_shaper *tables, int32_t *pixels, size_t count);

/// Fixed-point scale of the weights `cascade_area_sums` takes: 1.0 = 2^14.
#define CASCADE_AREA_WEIGHT_BITS 14

/// The vertical pass of area averaging for opaque pictures: for each of the `width` pixels of
/// the `count` rows at `rows`, the sum of its four bytes (in memory order) times the row's
/// weight in `weights` (fixed point, 1.0 = 2^14, each 0...2^14), stored as four floats at
/// `sums + 4 * x` in units of one level (the integer sum times 2^-14, exact). Integer
/// arithmetic, so the AVX2 path (eight pixels and two rows at a time) and the plain C one
/// give the same floats.
void cascade_area_sums(const int32_t *const *rows, const int16_t *weights, size_t count, size_t width, float *sums);

/// `cascade_area_sums` one pixel at a time, without AVX2 whatever the processor (for tests).
void cascade_area_sums_plain(const int32_t *const *rows, const int16_t *weights, size_t count, size_t width, float *sums);

/// The horizontal pass of area averaging for opaque pictures: output pixel x of `width` is the
/// sum over k < `taps` of the four floats at `sums + 4 * (starts[x] + k)` times
/// `weights[x * taps + k]` (multiplied, then added in order of k, never fused), each of the first
/// three clamped to 0...255 and rounded to the nearest integer (ties to even), the fourth byte
/// 0 (opaque). The AVX2 path (two pixels at a time) and the plain C one give the same pixels.
void cascade_area_row(const float *sums, const intptr_t *starts, const float *weights, size_t taps, size_t width, int32_t *out);

/// `cascade_area_row` one pixel at a time, without AVX2 whatever the processor (for tests).
void cascade_area_row_plain(const float *sums, const intptr_t *starts, const float *weights, size_t taps, size_t width, int32_t *out);

#endif
