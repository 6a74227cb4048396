#include "CPixelKernels.h"

// The folded matrix-shaper conversion (see FoldedMatrixShaper.swift for how the tables are
// made), for matrices the paired kernel (PairedMatrixShaper.c, a fifth to a quarter less time
// in a build) cannot take: per pixel three 64-bit loads and two adds give the three target
// channels' output indices in 21-bit fields, then three byte loads from the output table. Scalar code on
// purpose: this processor's loads run three a cycle where an eight-lane AVX2 gather takes
// about eight cycles, and the tables (6 KB of words, up to 64 KB of output bytes of which
// the 16 KB for colours inside the target's gamut are the ones used) stay in L1.
//
// Eight pixels a step, in two passes: the eight sums first, then the eight pixels' output
// bytes. A gd pixel (0xAARRGGBB in an int32) is, in memory on a little-endian machine, the
// bytes blue, green, red, alpha. With alpha kept, the output bytes are written where they
// are, so no instruction goes into putting them back together and alpha is never touched;
// made opaque, each pixel is written whole (0x00RRGGBB), as fast as the three bytes, so
// clearing TurboJPEG's filler byte costs no pass of its own. The input bytes are taken out
// of each pixel read whole (reading them one by one, three loads more, is slower).
//
// Tried and measured on the benchmark's 4.7-megapixel decodes (none faster by more than 5%,
// so not worth their tables or code): two pixels read as one 64-bit word; two pixels written
// as one; red and green output tables of 32-bit words already shifted into place (ORed
// together: 4% faster, 290 KB more per conversion); one table for green and blue together
// (64K words); the input bytes or the sums' fields split out with AVX2. Without the output
// loads at all the loop is no faster, and it runs as fast on pixels in L1 as on a picture
// far larger than the caches: the core's instruction throughput sets its pace, not memory.

#define FIELD_BITS CASCADE_FOLDED_FIELD_BITS
#define FRACTION_BITS CASCADE_FOLDED_FRACTION_BITS
#define INDEX_MASK ((UINT64_C(1) << (FIELD_BITS - FRACTION_BITS)) - 1)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__

/// The kernel without BMI1; `opaque` (a constant where it is inlined) chooses whether alpha
/// is kept or cleared.
static inline __attribute__((always_inline)) size_t convert_plain(
    const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count, int opaque) {
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
            uint32_t red = output[(sums[k] >> FRACTION_BITS) & INDEX_MASK];
            uint32_t green = output[(sums[k] >> (FIELD_BITS + FRACTION_BITS)) & INDEX_MASK];
            uint32_t blue = output[sums[k] >> (2 * FIELD_BITS + FRACTION_BITS)];
            if (opaque) {
                pixels[x + k] = (int32_t)(red << 16 | green << 8 | blue);
            } else {
                step[4 * k + 2] = (uint8_t)red;
                step[4 * k + 1] = (uint8_t)green;
                step[4 * k] = (uint8_t)blue;
            }
        }
    }
    return x;
}

size_t cascade_folded_matrix_shaper_apply_plain(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return convert_plain(words, output, pixels, count, 0);
}

size_t cascade_folded_matrix_shaper_apply_opaque_plain(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return convert_plain(words, output, pixels, count, 1);
}

#else

size_t cascade_folded_matrix_shaper_apply_plain(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    (void)words;
    (void)output;
    (void)pixels;
    (void)count;
    return 0;  // the Swift loop converts them all
}

size_t cascade_folded_matrix_shaper_apply_opaque_plain(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return cascade_folded_matrix_shaper_apply_plain(words, output, pixels, count);
}

#endif

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// The same arithmetic with BMI1's `bextr` taking each byte and field out in one instruction
/// (a shift and a mask otherwise): about 8% faster.
__attribute__((target("bmi"))) static inline __attribute__((always_inline)) size_t convert_bmi(
    const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count, int opaque) {
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
            uint32_t red = output[_bextr_u64(sums[k], FRACTION_BITS, length)];
            uint32_t green = output[_bextr_u64(sums[k], FIELD_BITS + FRACTION_BITS, length)];
            uint32_t blue = output[sums[k] >> (2 * FIELD_BITS + FRACTION_BITS)];
            if (opaque) {
                pixels[x + k] = (int32_t)(red << 16 | green << 8 | blue);
            } else {
                step[4 * k + 2] = (uint8_t)red;
                step[4 * k + 1] = (uint8_t)green;
                step[4 * k] = (uint8_t)blue;
            }
        }
    }
    return x;
}

__attribute__((target("bmi"))) static size_t apply_bmi(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return convert_bmi(words, output, pixels, count, 0);
}

__attribute__((target("bmi"))) static size_t apply_opaque_bmi(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return convert_bmi(words, output, pixels, count, 1);
}

size_t cascade_folded_matrix_shaper_apply(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return cascade_pixel_kernels_bmi() ? apply_bmi(words, output, pixels, count)
                     : cascade_folded_matrix_shaper_apply_plain(words, output, pixels, count);
}

size_t cascade_folded_matrix_shaper_apply_opaque(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return cascade_pixel_kernels_bmi() ? apply_opaque_bmi(words, output, pixels, count)
                     : cascade_folded_matrix_shaper_apply_opaque_plain(words, output, pixels, count);
}

#else

size_t cascade_folded_matrix_shaper_apply(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return cascade_folded_matrix_shaper_apply_plain(words, output, pixels, count);
}

size_t cascade_folded_matrix_shaper_apply_opaque(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return cascade_folded_matrix_shaper_apply_opaque_plain(words, output, pixels, count);
}

#endif
