#ifndef CASCADE_PIXEL_KERNELS_H
#define CASCADE_PIXEL_KERNELS_H

// Kernels for the pixel loops Swift's compiler does not make fast enough (vector ones with AVX2,
// and the colour tables' scalar one). Each one converts what it can and says how much; the Swift caller
// does the rest with its own scalar code, which is also the path on processors without AVX2.

#include <stddef.h>
#include <stdint.h>

/// Whether this processor runs the vector kernels (AVX2 on x86-64); 0 elsewhere.
int cascade_pixel_kernels_vector(void);

/// Whether this processor has BMI1 (`bextr`, for the colour kernel; x86-64); 0 elsewhere.
int cascade_pixel_kernels_bmi(void);

/// Bits of each of the three fields of a folded matrix-shaper word (see FoldedMatrixShaper.swift):
/// field 0 (bits 0-20) adds up to the target's red, field 1 green, field 2 blue.
#define CASCADE_FOLDED_FIELD_BITS 21
/// Bits of each field below the output table's index (the products' rounding margin).
#define CASCADE_FOLDED_FRACTION_BITS 5

/// Converts the first pixels of `pixels` (gd pixels, 0xAARRGGBB in each int32, alpha kept) in
/// place with a folded matrix-shaper conversion and returns how many it converted: a multiple
/// of 8 no larger than `count` (0 on big-endian machines). `words` holds 768 words (red's 256,
/// green's, blue's): a pixel's three words are added and field i of the sum, shifted right by
/// the fraction bits, indexes `output` for target channel i. `output` must cover every index
/// such sums reach (the caller makes the tables so). Scalar code, with BMI1 where the
/// processor has it; every path gives the same pixels.
size_t cascade_folded_matrix_shaper_apply(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count);

/// `cascade_folded_matrix_shaper_apply` without BMI1 whatever the processor (for tests).
size_t cascade_folded_matrix_shaper_apply_plain(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count);

/// `cascade_folded_matrix_shaper_apply` with each converted pixel's top byte (gd's alpha) set
/// to 0, opaque, whatever it held: pixels just decoded (TurboJPEG's filler byte is 0xFF) are
/// converted and made gd pixels in one pass. The same red, green and blue.
size_t cascade_folded_matrix_shaper_apply_opaque(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count);

/// `cascade_folded_matrix_shaper_apply_opaque` without BMI1 whatever the processor (for tests).
size_t cascade_folded_matrix_shaper_apply_opaque_plain(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count);

/// Converts `count` gd pixels (0xAARRGGBB in each int32, alpha kept) in place with a paired
/// matrix-shaper conversion (see PairedMatrixShaper.swift) and returns `count`. `pairs` holds
/// 65,536 words, one for each source red << 8 | green: the target's red << 24 | green << 16 |
/// a bucket << 8; `blue` holds 65,536 bytes, the target's blue for each bucket << 8 | source
/// blue. Scalar code, with BMI1 where the processor has it; every path gives the same pixels.
size_t cascade_paired_matrix_shaper_apply(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count);

/// `cascade_paired_matrix_shaper_apply` without BMI1 whatever the processor (for tests).
size_t cascade_paired_matrix_shaper_apply_plain(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count);

/// `cascade_paired_matrix_shaper_apply` with each pixel's top byte (gd's alpha) set to 0,
/// opaque, whatever it held (as `cascade_folded_matrix_shaper_apply_opaque`).
size_t cascade_paired_matrix_shaper_apply_opaque(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count);

/// `cascade_paired_matrix_shaper_apply_opaque` without BMI1 whatever the processor (for tests).
size_t cascade_paired_matrix_shaper_apply_opaque_plain(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count);

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
