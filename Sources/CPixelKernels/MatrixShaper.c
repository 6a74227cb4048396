#include "CPixelKernels.h"

// The folded matrix-shaper conversion (see FoldedMatrixShaper.swift for how the tables are
// made): per pixel three 64-bit loads and two adds give the three target channels' output
// indices in 21-bit fields, then three byte loads from the output table. Scalar code on
// purpose: this processor's loads run three a cycle where an eight-lane AVX2 gather takes
// about eight cycles, and the tables (6 KB of words, up to 64 KB of output bytes of which
// the 16 KB for colours inside the target's gamut are the ones used) stay in L1.
//
// Eight pixels a step, in two passes: the eight sums first, then the eight pixels' output
// bytes. A gd pixel (0xAARRGGBB in an int32) is, in memory on a little-endian machine, the
// bytes blue, green, red, alpha: the output bytes are written where they are, so no
// instruction goes into putting them back together, and alpha is never touched. The input
// bytes are taken out of each pixel read whole (reading them one by one costs more: loads and
// stores, not arithmetic, set the pace of this loop).

#define FIELD_BITS CASCADE_FOLDED_FIELD_BITS
#define FRACTION_BITS CASCADE_FOLDED_FRACTION_BITS
#define INDEX_MASK ((UINT64_C(1) << (FIELD_BITS - FRACTION_BITS)) - 1)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__

size_t cascade_folded_matrix_shaper_apply_plain(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    uint8_t *bytes = (uint8_t *)pixels;
    size_t x = 0;
    for (; x + 8 <= count; x += 8) {
        uint8_t *step = bytes + 4 * x;
        uint64_t sums[8];
        for (int k = 0; k < 8; k++) {
            uint32_t pixel = (uint32_t)pixels[x + k];
            sums[k] = words[(pixel >> 16) & 0xFF] + words[256 + ((pixel >> 8) & 0xFF)] + words[512 + (pixel & 0xFF)];
        }
        for (int k = 0; k < 8; k++) {
            step[4 * k + 2] = output[(sums[k] >> FRACTION_BITS) & INDEX_MASK];
            step[4 * k + 1] = output[(sums[k] >> (FIELD_BITS + FRACTION_BITS)) & INDEX_MASK];
            step[4 * k] = output[sums[k] >> (2 * FIELD_BITS + FRACTION_BITS)];
        }
    }
    return x;
}

#else

size_t cascade_folded_matrix_shaper_apply_plain(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    (void)words;
    (void)output;
    (void)pixels;
    (void)count;
    return 0;  // the Swift loop converts them all
}

#endif

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// The same arithmetic with BMI1's `bextr` taking each byte and field out in one instruction
/// (a shift and a mask otherwise): about 8% faster.
__attribute__((target("bmi")))
static size_t apply_bmi(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    const unsigned length = FIELD_BITS - FRACTION_BITS;
    uint8_t *bytes = (uint8_t *)pixels;
    size_t x = 0;
    for (; x + 8 <= count; x += 8) {
        uint8_t *step = bytes + 4 * x;
        uint64_t sums[8];
        for (int k = 0; k < 8; k++) {
            uint32_t pixel = (uint32_t)pixels[x + k];
            sums[k] = words[_bextr_u32(pixel, 16, 8)] + words[256 + _bextr_u32(pixel, 8, 8)] + words[512 + (pixel & 0xFF)];
        }
        for (int k = 0; k < 8; k++) {
            step[4 * k + 2] = output[_bextr_u64(sums[k], FRACTION_BITS, length)];
            step[4 * k + 1] = output[_bextr_u64(sums[k], FIELD_BITS + FRACTION_BITS, length)];
            step[4 * k] = output[sums[k] >> (2 * FIELD_BITS + FRACTION_BITS)];
        }
    }
    return x;
}

size_t cascade_folded_matrix_shaper_apply(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return cascade_pixel_kernels_bmi() ? apply_bmi(words, output, pixels, count)
                     : cascade_folded_matrix_shaper_apply_plain(words, output, pixels, count);
}

#else

size_t cascade_folded_matrix_shaper_apply(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return cascade_folded_matrix_shaper_apply_plain(words, output, pixels, count);
}

#endif
