#include "CPixelKernels.h"

#include <string.h>

// The folded matrix-shaper conversion (see FoldedMatrixShaper.swift for how the tables are
// made): per pixel three 64-bit loads and two adds give the three target channels' output
// indices in 21-bit fields, then three byte loads from the output table. Scalar code on
// purpose: this processor's loads run three a cycle where an eight-lane AVX2 gather takes
// about eight cycles, and the tables (6 KB of words, up to 64 KB of output bytes of which
// the 16 KB for colours inside the target's gamut are the ones used) stay in L1.

#define FIELD_BITS CASCADE_FOLDED_FIELD_BITS
#define FRACTION_BITS CASCADE_FOLDED_FRACTION_BITS
#define INDEX_MASK ((UINT64_C(1) << (FIELD_BITS - FRACTION_BITS)) - 1)

/// One pixel, the arithmetic every path shares (FoldedMatrixShaper.applyScalar in Swift too).
static inline uint32_t convert_one(uint32_t pixel, const uint64_t *words, const uint8_t *output) {
    uint64_t sum = words[(pixel >> 16) & 0xFF] + words[256 + ((pixel >> 8) & 0xFF)] + words[512 + (pixel & 0xFF)];
    return (pixel & 0xFF000000u)
        | (uint32_t)output[(sum >> FRACTION_BITS) & INDEX_MASK] << 16
        | (uint32_t)output[(sum >> (FIELD_BITS + FRACTION_BITS)) & INDEX_MASK] << 8
        | (uint32_t)output[sum >> (2 * FIELD_BITS + FRACTION_BITS)];
}

size_t cascade_folded_matrix_shaper_apply_plain(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    size_t x = 0;
    for (; x + 4 <= count; x += 4) {
        uint32_t a = convert_one((uint32_t)pixels[x], words, output);
        uint32_t b = convert_one((uint32_t)pixels[x + 1], words, output);
        uint32_t c = convert_one((uint32_t)pixels[x + 2], words, output);
        uint32_t d = convert_one((uint32_t)pixels[x + 3], words, output);
        pixels[x] = (int32_t)a;
        pixels[x + 1] = (int32_t)b;
        pixels[x + 2] = (int32_t)c;
        pixels[x + 3] = (int32_t)d;
    }
    return x;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// The same arithmetic, two pixels to a 64-bit load and store, with BMI1's `bextr` taking each
/// byte and field out in one instruction (a shift and a mask otherwise): about 40% fewer
/// instructions than convert_one's loop.
__attribute__((target("bmi")))
static size_t apply_bmi(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    const unsigned length = FIELD_BITS - FRACTION_BITS;
    size_t x = 0;
    for (; x + 4 <= count; x += 4) {
        uint64_t pairs[2];
        memcpy(pairs, pixels + x, sizeof pairs);
        for (int k = 0; k < 2; k++) {
            uint64_t v = pairs[k];  // pixel x + 2k in the low half, x + 2k + 1 in the high one
            uint64_t s = words[_bextr_u64(v, 16, 8)] + words[256 + _bextr_u64(v, 8, 8)] + words[512 + (v & 0xFF)];
            uint64_t t = words[_bextr_u64(v, 48, 8)] + words[256 + _bextr_u64(v, 40, 8)] + words[512 + _bextr_u64(v, 32, 8)];
            uint64_t low = (uint64_t)output[_bextr_u64(s, FRACTION_BITS, length)] << 16
                | (uint64_t)output[_bextr_u64(s, FIELD_BITS + FRACTION_BITS, length)] << 8
                | (uint64_t)output[s >> (2 * FIELD_BITS + FRACTION_BITS)];
            uint64_t high = (uint64_t)output[_bextr_u64(t, FRACTION_BITS, length)] << 48
                | (uint64_t)output[_bextr_u64(t, FIELD_BITS + FRACTION_BITS, length)] << 40
                | (uint64_t)output[t >> (2 * FIELD_BITS + FRACTION_BITS)] << 32;
            pairs[k] = (v & UINT64_C(0xFF000000FF000000)) | low | high;
        }
        memcpy(pixels + x, pairs, sizeof pairs);
    }
    return x;
}

static int has_bmi(void) {
    // Found once; threads that race to find it first store the same answer.
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        __builtin_cpu_init();
        answer = __builtin_cpu_supports("bmi") ? 1 : 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}

size_t cascade_folded_matrix_shaper_apply(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return has_bmi() ? apply_bmi(words, output, pixels, count)
                     : cascade_folded_matrix_shaper_apply_plain(words, output, pixels, count);
}

#else

size_t cascade_folded_matrix_shaper_apply(const uint64_t *words, const uint8_t *output, int32_t *pixels, size_t count) {
    return cascade_folded_matrix_shaper_apply_plain(words, output, pixels, count);
}

#endif
