#include "CPixelKernels.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// The same arithmetic as MatrixShaperTables.applyScalar, on eight pixels at a time in 32-bit
/// lanes: three gathers from the input curves, the matrix, the rounding shift and clamp, three
/// gathers from the output table (four bytes at each index, the first kept).
__attribute__((target("avx2")))
static size_t apply_avx2(const cascade_matrix_shaper *t, int32_t *pixels, size_t count) {
    const __m256i byte = _mm256_set1_epi32(0xFF);
    const __m256i alpha = _mm256_set1_epi32((int32_t)0xFF000000u);
    const __m256i half = _mm256_set1_epi32(t->half);
    const __m256i top = _mm256_set1_epi32(t->top);
    const __m256i zero = _mm256_setzero_si256();
    const __m128i shift = _mm_cvtsi32_si128(t->shift);
    __m256i m[9];
    for (int i = 0; i < 9; i++) m[i] = _mm256_set1_epi32(t->matrix[i]);
    const int *out = (const int *)(const void *)t->output;
    size_t x = 0;
    for (; x + 8 <= count; x += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(const void *)(pixels + x));
        __m256i r = _mm256_i32gather_epi32(t->red, _mm256_and_si256(_mm256_srli_epi32(p, 16), byte), 4);
        __m256i g = _mm256_i32gather_epi32(t->green, _mm256_and_si256(_mm256_srli_epi32(p, 8), byte), 4);
        __m256i b = _mm256_i32gather_epi32(t->blue, _mm256_and_si256(p, byte), 4);
        __m256i channel[3];
        for (int row = 0; row < 3; row++) {
            __m256i v = _mm256_add_epi32(
                _mm256_add_epi32(_mm256_mullo_epi32(m[row * 3], r), _mm256_mullo_epi32(m[row * 3 + 1], g)),
                _mm256_add_epi32(_mm256_mullo_epi32(m[row * 3 + 2], b), half));
            v = _mm256_min_epi32(_mm256_max_epi32(_mm256_sra_epi32(v, shift), zero), top);
            channel[row] = _mm256_and_si256(_mm256_i32gather_epi32(out, v, 1), byte);
        }
        __m256i result = _mm256_or_si256(
            _mm256_or_si256(_mm256_and_si256(p, alpha), _mm256_slli_epi32(channel[0], 16)),
            _mm256_or_si256(_mm256_slli_epi32(channel[1], 8), channel[2]));
        _mm256_storeu_si256((__m256i *)(void *)(pixels + x), result);
    }
    return x;
}

size_t cascade_matrix_shaper_apply(const cascade_matrix_shaper *tables, int32_t *pixels, size_t count) {
    return cascade_pixel_kernels_vector() ? apply_avx2(tables, pixels, count) : 0;
}

#else

size_t cascade_matrix_shaper_apply(const cascade_matrix_shaper *tables, int32_t *pixels, size_t count) {
    (void)tables;
    (void)pixels;
    (void)count;
    return 0;
}

#endif
