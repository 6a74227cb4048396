#include "CPixelKernels.h"

// Which of the processor's extensions the kernels can use: each asked of the processor once.

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

/// What `ask` says of the processor (`__builtin_cpu_supports` takes a literal, so each
/// extension has its own `ask`), remembered in `known`: threads that race to find it first
/// store the same answer.
static int remembered(int *known, int (*ask)(void)) {
    int answer = __atomic_load_n(known, __ATOMIC_RELAXED);
    if (answer < 0) {
        __builtin_cpu_init();
        answer = ask() ? 1 : 0;
        __atomic_store_n(known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}

static int ask_avx2(void) { return __builtin_cpu_supports("avx2"); }
static int ask_bmi(void) { return __builtin_cpu_supports("bmi"); }

int cascade_pixel_kernels_vector(void) {
    static int known = -1;
    return remembered(&known, ask_avx2);
}

int cascade_pixel_kernels_bmi(void) {
    static int known = -1;
    return remembered(&known, ask_bmi);
}

#else

int cascade_pixel_kernels_vector(void) { return 0; }
int cascade_pixel_kernels_bmi(void) { return 0; }

#endif
