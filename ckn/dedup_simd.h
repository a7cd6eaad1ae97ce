/* AVX-512 row compares of ckn._dedup's pairs pass (x86-64 with GCC or Clang; elsewhere
   stubs, never called: ckn._dedup calls these only when minhash_cpu.h's checks passed).
   Internal: not part of the C API. */
#ifndef CKN_DEDUP_SIMD_H
#define CKN_DEDUP_SIMD_H
#include <stdint.h>
#include <stddef.h>
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
/* counts[q] = slots k < perms with row[k] == sig[rows[q] * perms + k] != p, for q < m:
   16 slots per compare, the last ones masked. */
__attribute__((target("avx512f")))
static void ckn_mh_row_counts_avx512(const uint32_t* sig, ptrdiff_t perms, const uint32_t* row,
                                     const ptrdiff_t* rows, ptrdiff_t m, ptrdiff_t* counts) {
    const __m512i p = _mm512_set1_epi32(2147483647);
    const __mmask16 tail = (__mmask16)((1u << (perms & 15)) - 1u);
    ptrdiff_t q, k;
    for (q = 0; q < m; q++) {
        const uint32_t* other = sig + rows[q] * perms;
        ptrdiff_t eq = 0;
        for (k = 0; k + 16 <= perms; k += 16) {
            __m512i x = _mm512_loadu_si512((const void*)(row + k));
            __mmask16 same = _mm512_cmpeq_epu32_mask(
                x, _mm512_loadu_si512((const void*)(other + k)));
            eq += __builtin_popcount((unsigned)_mm512_mask_cmpneq_epu32_mask(same, x, p));
        }
        if (tail) {
            __m512i x = _mm512_maskz_loadu_epi32(tail, (const void*)(row + k));
            __mmask16 same = _mm512_mask_cmpeq_epu32_mask(
                tail, x, _mm512_maskz_loadu_epi32(tail, (const void*)(other + k)));
            eq += __builtin_popcount((unsigned)_mm512_mask_cmpneq_epu32_mask(same, x, p));
        }
        counts[q] = eq;
    }
}
/* bounds[q] = bytes k < 64 with row[k] == fp[rows[q] * 64 + k], for q < m: 64 one-byte
   fingerprints (a slot's low byte) per compare. Equal slots have equal fingerprints, so
   bounds[q] is at least row's equal-slot count with rows[q]. */
__attribute__((target("avx512f,avx512bw")))
static void ckn_mh_row_bounds_avx512(const uint8_t* fp, const uint8_t* row,
                                     const ptrdiff_t* rows, ptrdiff_t m, ptrdiff_t* bounds) {
    const __m512i x = _mm512_loadu_si512((const void*)row);
    ptrdiff_t q;
    for (q = 0; q < m; q++)
        bounds[q] = __builtin_popcountll(
            _mm512_cmpeq_epi8_mask(x, _mm512_loadu_si512((const void*)(fp + rows[q] * 64))));
}
#else
static void ckn_mh_row_counts_avx512(const uint32_t* sig, ptrdiff_t perms, const uint32_t* row,
                                     const ptrdiff_t* rows, ptrdiff_t m, ptrdiff_t* counts) {
    (void)sig; (void)perms; (void)row; (void)rows; (void)m; (void)counts;
}
static void ckn_mh_row_bounds_avx512(const uint8_t* fp, const uint8_t* row,
                                     const ptrdiff_t* rows, ptrdiff_t m, ptrdiff_t* bounds) {
    (void)fp; (void)row; (void)rows; (void)m; (void)bounds;
}
#endif
#endif /* CKN_DEDUP_SIMD_H */
