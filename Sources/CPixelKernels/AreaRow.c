#include "CPixelKernels.h"
#include <string.h>

// The sums are multiplied and added as written: a fused multiply-add would round differently
// in the two paths.
#pragma STDC FP_CONTRACT OFF

/// 1.5 * 2^23: added to a float in 0...255, leaves its value rounded to an integer (ties to
/// even) in the low bits of the significand.
static const float magic = 12582912.0f;

/// Pixels `from..<width` one at a time: the path without AVX2, and the tail of rows.
static void area_row_plain(const float *sums, const intptr_t *starts, const float *weights, size_t taps, size_t from, size_t width,
                           int32_t *out) {
    for (size_t x = from; x < width; x++) {
        const float *source = sums + 4 * starts[x];
        const float *w = weights + x * taps;
        float total[3];
        for (int c = 0; c < 3; c++) total[c] = source[c] * w[0];
        for (size_t k = 1; k < taps; k++) {
            for (int c = 0; c < 3; c++) total[c] = total[c] + source[4 * k + c] * w[k];
        }
        uint32_t pixel = 0;
        for (int c = 0; c < 3; c++) {
            float v = total[c] > 0 ? total[c] : 0;  // NaN cannot occur: finite sums and weights
            v = (v < 255 ? v : 255) + magic;
            uint32_t bits;
            memcpy(&bits, &v, sizeof bits);
            pixel |= (bits & 0xFF) << (8 * c);
        }
        out[x] = (int32_t)pixel;
    }
}

void cascade_area_row_plain(const float *sums, const intptr_t *starts, const float *weights, size_t taps, size_t width, int32_t *out) {
    area_row_plain(sums, starts, weights, taps, 0, width, out);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// Output pixels x and x + 1 summed, one in each 128-bit lane (the first product assigned, the
/// others added in order).
__attribute__((target("avx2"), always_inline))
static inline __m256 area_pair(const float *sums, const intptr_t *starts, const float *weights, size_t taps, size_t x) {
    const float *first = sums + 4 * starts[x], *second = sums + 4 * starts[x + 1];
    const float *w0 = weights + x * taps, *w1 = w0 + taps;
    __m256 s = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(first)), _mm_loadu_ps(second), 1);
    __m256 w = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_broadcast_ss(w0)), _mm_broadcast_ss(w1), 1);
    __m256 total = _mm256_mul_ps(s, w);
    for (size_t k = 1; k < taps; k++) {
        s = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(first + 4 * k)), _mm_loadu_ps(second + 4 * k), 1);
        w = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_broadcast_ss(w0 + k)), _mm_broadcast_ss(w1 + k), 1);
        total = _mm256_add_ps(total, _mm256_mul_ps(s, w));
    }
    return total;
}

/// Four output pixels at a time: two pairs, one in each 128-bit lane of two vectors (two
/// independent chains of additions).
__attribute__((target("avx2")))
static size_t area_row_avx2(const float *sums, const intptr_t *starts, const float *weights, size_t taps, size_t width, int32_t *out) {
    const __m256 zero = _mm256_setzero_ps();
    const __m256 limits = _mm256_setr_ps(255, 255, 255, 0, 255, 255, 255, 0);
    const __m256 rounding = _mm256_set1_ps(magic);
    // The low byte of each lane's four floats to the lane's first four bytes; then the four
    // pixels (lane 0 and 1 of the first vector, of the second) next to each other.
    const __m256i bytes = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                           -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1);
    size_t x = 0;
    for (; x + 4 <= width; x += 4) {
        __m256 a = area_pair(sums, starts, weights, taps, x), b = area_pair(sums, starts, weights, taps, x + 2);
        a = _mm256_add_ps(_mm256_min_ps(_mm256_max_ps(a, zero), limits), rounding);
        b = _mm256_add_ps(_mm256_min_ps(_mm256_max_ps(b, zero), limits), rounding);
        // a's pixels in bytes 0-3 and 20-23, b's in the same places; b's moved up by 4 bytes.
        __m256i pa = _mm256_shuffle_epi8(_mm256_castps_si256(a), bytes);
        __m256i pb = _mm256_slli_si256(_mm256_shuffle_epi8(_mm256_castps_si256(b), bytes), 8);
        // Dwords: a0 at 0, a1 at 5, b0 at 2, b1 at 7.
        __m256i both = _mm256_or_si256(pa, pb);
        __m256i ordered = _mm256_permutevar8x32_epi32(both, _mm256_setr_epi32(0, 5, 2, 7, 0, 0, 0, 0));
        _mm_storeu_si128((__m128i *)(void *)(out + x), _mm256_castsi256_si128(ordered));
    }
    return x;
}

void cascade_area_row(const float *sums, const intptr_t *starts, const float *weights, size_t taps, size_t width, int32_t *out) {
    size_t done = cascade_pixel_kernels_vector() ? area_row_avx2(sums, starts, weights, taps, width, out) : 0;
    area_row_plain(sums, starts, weights, taps, done, width, out);
}

#else

void cascade_area_row(const float *sums, const intptr_t *starts, const float *weights, size_t taps, size_t width, int32_t *out) {
    area_row_plain(sums, starts, weights, taps, 0, width, out);
}

#endif
