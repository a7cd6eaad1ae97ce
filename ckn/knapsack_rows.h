/* Row kernels of ckn.knapsack's weight DP (included by knapsack.pyx).
 *
 * One in-place DP row update in the <= formulation (every cell >= 0):
 *   f[c] = max(f[c], f[c - w] + v) for c >= w, cells visited from the top down,
 * and, when `bits` is not NULL, bit c of bits set iff f[c - w] + v >= old f[c] (taking the
 * item is one of the best ways to reach c). int32 and int64 cells; AVX2 versions are compiled
 * with a target attribute and chosen at run time (__builtin_cpu_supports), SSE2 is the x86-64
 * baseline for int32, everything else is plain C. No allocation, no Python: nogil-safe.
 */
#ifndef CKN_KNAPSACK_ROWS_H
#define CKN_KNAPSACK_ROWS_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define CKN_KP_X86 1
#include <immintrin.h>
#endif

#define CKN_KP_SCALAR_STEP(c) do { \
    if (f[(c) - w] + v >= f[(c)]) { \
        f[(c)] = f[(c) - w] + v; \
        if (bits) bits[(c) >> 6] |= (uint64_t)1 << ((c) & 63); \
    } } while (0)

static void ckn_kp_row_i64_c(int64_t* f, ptrdiff_t span, ptrdiff_t w, int64_t v, uint64_t* bits) {
    ptrdiff_t c;
    if (bits) memset(bits, 0, (size_t)((span + 63) >> 6) * 8);
    for (c = span - 1; c >= w; --c) CKN_KP_SCALAR_STEP(c);
}

static void ckn_kp_row_i32_c(int32_t* f, ptrdiff_t span, ptrdiff_t w, int32_t v, uint64_t* bits) {
    ptrdiff_t c;
    if (bits) memset(bits, 0, (size_t)((span + 63) >> 6) * 8);
#ifdef CKN_KP_X86
    {
        __m128i vv = _mm_set1_epi32(v);
        c = span;
        if (bits) {
            while (c > w && (c & 63)) { --c; CKN_KP_SCALAR_STEP(c); }
            while (c - 64 >= w) {
                uint64_t mask = 0;
                int j;
                c -= 64;
                for (j = 60; j >= 0; j -= 4) {
                    __m128i a = _mm_add_epi32(_mm_loadu_si128((const __m128i*)(f + c + j - w)), vv);
                    __m128i b = _mm_loadu_si128((const __m128i*)(f + c + j));
                    __m128i keep = _mm_cmpgt_epi32(b, a);
                    _mm_storeu_si128((__m128i*)(f + c + j),
                                     _mm_or_si128(_mm_and_si128(keep, b), _mm_andnot_si128(keep, a)));
                    mask |= (uint64_t)(~_mm_movemask_ps(_mm_castsi128_ps(keep)) & 0xf) << j;
                }
                bits[c >> 6] = mask;
            }
        } else {
            while (c - 4 >= w) {
                __m128i a, b, keep;
                c -= 4;
                a = _mm_add_epi32(_mm_loadu_si128((const __m128i*)(f + c - w)), vv);
                b = _mm_loadu_si128((const __m128i*)(f + c));
                keep = _mm_cmpgt_epi32(b, a);
                _mm_storeu_si128((__m128i*)(f + c),
                                 _mm_or_si128(_mm_and_si128(keep, b), _mm_andnot_si128(keep, a)));
            }
        }
        while (c > w) { --c; CKN_KP_SCALAR_STEP(c); }
    }
#else
    for (c = span - 1; c >= w; --c) CKN_KP_SCALAR_STEP(c);
#endif
}

#ifdef CKN_KP_X86
__attribute__((target("avx2")))
static void ckn_kp_row_i32_avx2(int32_t* f, ptrdiff_t span, ptrdiff_t w, int32_t v, uint64_t* bits) {
    __m256i vv = _mm256_set1_epi32(v);
    ptrdiff_t c = span;
    if (bits) {
        memset(bits, 0, (size_t)((span + 63) >> 6) * 8);
        while (c > w && (c & 63)) { --c; CKN_KP_SCALAR_STEP(c); }
        while (c - 64 >= w) {
            uint64_t mask = 0;
            int j;
            c -= 64;
            for (j = 56; j >= 0; j -= 8) {
                __m256i a = _mm256_add_epi32(_mm256_loadu_si256((const __m256i*)(f + c + j - w)), vv);
                __m256i b = _mm256_loadu_si256((const __m256i*)(f + c + j));
                __m256i keep = _mm256_cmpgt_epi32(b, a);
                _mm256_storeu_si256((__m256i*)(f + c + j), _mm256_max_epi32(a, b));
                mask |= (uint64_t)(~_mm256_movemask_ps(_mm256_castsi256_ps(keep)) & 0xff) << j;
            }
            bits[c >> 6] = mask;
        }
    } else {
        while (c - 8 >= w) {
            c -= 8;
            _mm256_storeu_si256((__m256i*)(f + c), _mm256_max_epi32(
                _mm256_add_epi32(_mm256_loadu_si256((const __m256i*)(f + c - w)), vv),
                _mm256_loadu_si256((const __m256i*)(f + c))));
        }
    }
    while (c > w) { --c; CKN_KP_SCALAR_STEP(c); }
}

__attribute__((target("avx2")))
static void ckn_kp_row_i64_avx2(int64_t* f, ptrdiff_t span, ptrdiff_t w, int64_t v, uint64_t* bits) {
    __m256i vv = _mm256_set1_epi64x(v);
    ptrdiff_t c = span;
    if (bits) {
        memset(bits, 0, (size_t)((span + 63) >> 6) * 8);
        while (c > w && (c & 63)) { --c; CKN_KP_SCALAR_STEP(c); }
        while (c - 64 >= w) {
            uint64_t mask = 0;
            int j;
            c -= 64;
            for (j = 60; j >= 0; j -= 4) {
                __m256i a = _mm256_add_epi64(_mm256_loadu_si256((const __m256i*)(f + c + j - w)), vv);
                __m256i b = _mm256_loadu_si256((const __m256i*)(f + c + j));
                __m256i keep = _mm256_cmpgt_epi64(b, a);
                _mm256_storeu_si256((__m256i*)(f + c + j), _mm256_blendv_epi8(a, b, keep));
                mask |= (uint64_t)(~_mm256_movemask_pd(_mm256_castsi256_pd(keep)) & 0xf) << j;
            }
            bits[c >> 6] = mask;
        }
    } else {
        while (c - 4 >= w) {
            __m256i a, b;
            c -= 4;
            a = _mm256_add_epi64(_mm256_loadu_si256((const __m256i*)(f + c - w)), vv);
            b = _mm256_loadu_si256((const __m256i*)(f + c));
            _mm256_storeu_si256((__m256i*)(f + c), _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(b, a)));
        }
    }
    while (c > w) { --c; CKN_KP_SCALAR_STEP(c); }
}

static int ckn_kp_avx2_state = -1;
static int ckn_kp_have_avx2(void) {
    if (ckn_kp_avx2_state < 0) {
        __builtin_cpu_init();
        ckn_kp_avx2_state = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return ckn_kp_avx2_state;
}
#else
static int ckn_kp_have_avx2(void) { return 0; }
#define ckn_kp_row_i32_avx2 ckn_kp_row_i32_c
#define ckn_kp_row_i64_avx2 ckn_kp_row_i64_c
#endif

#endif /* CKN_KNAPSACK_ROWS_H */
