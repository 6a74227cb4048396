#include "CPixelKernels.h"

// The paired matrix-shaper conversion (see PairedMatrixShaper.swift for how the tables are
// made), for matrices whose target red and green take nothing from the source's blue. Per
// pixel: one 32-bit load indexed by the pixel's red and green gives the target's red and
// green, already in place, and a bucket of the pair's share of the target's blue; one byte
// load indexed by that bucket and the pixel's blue gives the target's blue. Two table loads a
// pixel where the folded tables take six, and about half the instructions.
//
// One pixel at a time, eleven instructions as clang compiles it with BMI1 (it writes the
// blue byte straight into the low byte of the shifted pair): unrolled by eight in two passes,
// as the folded kernel is, it measured no faster (0.90 against 0.85 ns a pixel, where the
// folded kernel takes 1.27, on a 4.7-megapixel decode of a camera-like photo). The tables
// (256 KB of words, 64 KB of bytes) do not fit in L1, but a photo's neighbouring pixels use
// few of their lines. Everything is done on the pixel's value, so byte order does not matter.

/// The kernel; `opaque` (a constant where it is inlined) chooses whether alpha is kept or
/// cleared.
static inline __attribute__((always_inline)) size_t convert_paired(
    const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count, int opaque) {
    for (size_t x = 0; x < count; x++) {
        uint32_t pixel = (uint32_t)pixels[x];
        uint32_t pair = pairs[(pixel >> 8) & 0xFFFF];
        uint32_t converted = ((pair >> 8) & 0xFFFF00) | blue[(pair & 0xFFFF) | (pixel & 0xFF)];
        pixels[x] = (int32_t)(opaque ? converted : (pixel & 0xFF000000) | converted);
    }
    return count;
}

size_t cascade_paired_matrix_shaper_apply_plain(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count) {
    return convert_paired(pairs, blue, pixels, count, 0);
}

size_t cascade_paired_matrix_shaper_apply_opaque_plain(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count) {
    return convert_paired(pairs, blue, pixels, count, 1);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

// The same code compiled with BMI1, which takes the pair's index out with one `bextr`.
__attribute__((target("bmi"))) static size_t apply_bmi(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count) {
    return convert_paired(pairs, blue, pixels, count, 0);
}

__attribute__((target("bmi"))) static size_t apply_opaque_bmi(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count) {
    return convert_paired(pairs, blue, pixels, count, 1);
}

size_t cascade_paired_matrix_shaper_apply(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count) {
    return cascade_pixel_kernels_bmi() ? apply_bmi(pairs, blue, pixels, count)
                                       : cascade_paired_matrix_shaper_apply_plain(pairs, blue, pixels, count);
}

size_t cascade_paired_matrix_shaper_apply_opaque(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count) {
    return cascade_pixel_kernels_bmi() ? apply_opaque_bmi(pairs, blue, pixels, count)
                                       : cascade_paired_matrix_shaper_apply_opaque_plain(pairs, blue, pixels, count);
}

#else

size_t cascade_paired_matrix_shaper_apply(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count) {
    return cascade_paired_matrix_shaper_apply_plain(pairs, blue, pixels, count);
}

size_t cascade_paired_matrix_shaper_apply_opaque(const uint32_t *pairs, const uint8_t *blue, int32_t *pixels, size_t count) {
    return cascade_paired_matrix_shaper_apply_opaque_plain(pairs, blue, pixels, count);
}

#endif
