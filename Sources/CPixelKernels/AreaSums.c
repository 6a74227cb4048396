#include "CPixelKernels.h"

static const float unit = 1.0f / (float)(1 << CASCADE_AREA_WEIGHT_BITS);

/// Pixels `from..<width` one at a time: the path without AVX2, and the tail of rows.
static void area_sums_plain(const int32_t *const *rows, const int16_t *weights, size_t count, size_t from, size_t width,
                            float *sums) {
    for (size_t x = from; x < width; x++) {
        int32_t total[4] = {0, 0, 0, 0};
        for (size_t k = 0; k < count; k++) {
            const uint8_t *bytes = (const uint8_t *)(const void *)(rows[k] + x);
            for (int c = 0; c < 4; c++) total[c] += (int32_t)bytes[c] * weights[k];
        }
        for (int c = 0; c < 4; c++) sums[4 * x + c] = (float)total[c] * unit;
    }
}

void cascade_area_sums_plain(const int32_t *const *rows, const int16_t *weights, size_t count, size_t width, float *sums) {
    area_sums_plain(rows, weights, count, 0, width, sums);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// Eight pixels at a time; rows in pairs, their bytes interleaved and widened to 16 bits so one
/// `madd` multiplies both rows' bytes by their weights and adds them.
__attribute__((target("avx2")))
static size_t area_sums_avx2(const int32_t *const *rows, const int16_t *weights, size_t count, size_t width, float *sums) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256 scale = _mm256_set1_ps(unit);
    size_t x = 0;
    for (; x + 8 <= width; x += 8) {
        __m256i acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
        for (size_t k = 0; k < count; k += 2) {
            __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(rows[k] + x));
            __m256i b = zero;
            int32_t pair = (uint16_t)weights[k];
            if (k + 1 < count) {
                b = _mm256_loadu_si256((const __m256i *)(const void *)(rows[k + 1] + x));
                pair |= (int32_t)((uint32_t)(uint16_t)weights[k + 1] << 16);
            }
            const __m256i w = _mm256_set1_epi32(pair);
            // Per 128-bit lane (pixels 0-3 and 4-7): a's and b's bytes alternating.
            const __m256i low = _mm256_unpacklo_epi8(a, b), high = _mm256_unpackhi_epi8(a, b);
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(_mm256_unpacklo_epi8(low, zero), w));   // pixels 0 | 4
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(_mm256_unpackhi_epi8(low, zero), w));   // 1 | 5
            acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_unpacklo_epi8(high, zero), w));  // 2 | 6
            acc3 = _mm256_add_epi32(acc3, _mm256_madd_epi16(_mm256_unpackhi_epi8(high, zero), w));  // 3 | 7
        }
        const __m256 f0 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc0), scale), f1 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc1), scale);
        const __m256 f2 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc2), scale), f3 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc3), scale);
        float *out = sums + 4 * x;
        _mm256_storeu_ps(out, _mm256_permute2f128_ps(f0, f1, 0x20));       // pixels 0, 1
        _mm256_storeu_ps(out + 8, _mm256_permute2f128_ps(f2, f3, 0x20));   // 2, 3
        _mm256_storeu_ps(out + 16, _mm256_permute2f128_ps(f0, f1, 0x31));  // 4, 5
        _mm256_storeu_ps(out + 24, _mm256_permute2f128_ps(f2, f3, 0x31));  // 6, 7
    }
    return x;
}

void cascade_area_sums(const int32_t *const *rows, const int16_t *weights, size_t count, size_t width, float *sums) {
    size_t done = cascade_pixel_kernels_vector() ? area_sums_avx2(rows, weights, count, width, sums) : 0;
    area_sums_plain(rows, weights, count, done, width, sums);
}

#else

void cascade_area_sums(const int32_t *const *rows, const int16_t *weights, size_t count, size_t width, float *sums) {
    area_sums_plain(rows, weights, count, 0, width, sums);
}

#endif
