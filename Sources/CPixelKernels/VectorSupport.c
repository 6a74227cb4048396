#include "CPixelKernels.h"

// Whether the vector kernels can run: asked of the processor once.

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

int cascade_pixel_kernels_vector(void) {
    // Found once; threads that race to find it first store the same answer.
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        __builtin_cpu_init();
        answer = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}

#else

int cascade_pixel_kernels_vector(void) { return 0; }

#endif
