/* SIMD kernels of ckn.minhash (x86-64 with GCC or Clang; stubs returning 0 elsewhere):
   signatures (AVX2, AVX-512 fold and fixed point) and width-3 shingles. The CPU checks that
   pick them are in minhash_cpu.h. Internal: not part of the C API. */
#ifndef CKN_MINHASH_SIMD_H
#define CKN_MINHASH_SIMD_H
#include <stdint.h>
#include <stddef.h>
/* A[i] = floor(a[i]*Q/p) * (1 - 2^32) mod Q and B[i] = floor(b[i]*Q/p) + 3 * 2^31 for
   i < n (Q = 2^64; a[i], b[i] < p), the fixed-point kernel's parameters (below). With
   2^64 = p * (2^33 + 4) + 4, floor(v*Q/p) = v*(2^33 + 4) + floor(4v/p), and for u = 4v <
   4p, floor(u/p) = (u + (u >> 31) + 1) >> 31 (one Mersenne fold). */
static void ckn_mh_fixed_params(const uint32_t* a, const uint32_t* b, ptrdiff_t n,
                                uint64_t* A, uint64_t* B) {
    const uint64_t K = (1ULL << 33) + 4;
    ptrdiff_t i;
    for (i = 0; i < n; i++) {
        uint64_t ua = 4 * (uint64_t)a[i], ub = 4 * (uint64_t)b[i];
        uint64_t fa = a[i] * K + ((ua + (ua >> 31) + 1) >> 31);
        A[i] = fa - (fa << 32);
        B[i] = b[i] * K + ((ub + (ub >> 31) + 1) >> 31) + 3 * (1ULL << 31);
    }
}
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
/* 8 permutations per 256-bit vector (32-bit lanes), CKN_MH_VECS vectors per pass over the
   set, then single vectors for a remainder of 8..8*CKN_MH_VECS-1. Per vector and shingle
   x (13 operations):
   - x is first reduced to x <= p + 1 (x >= p acts as x mod p); a <= p - 1, b <= p - 1, so
     y = a*x + b <= p^2 + p - 2 < 2^62, and with 2^31 = p + 1: H = y >> 31 <= p - 1,
     L = y & p <= p, y' = L + H = y mod p or y mod p + p (y' <= 2p - 1 < 2^32).
   - Even lanes: ye = a*x + b as 4 x 64-bit products (vpmuludq). Odd lanes: zo = 2y from
     2a (< 2^32) and 2b, so zo < 2^63 and its upper 32 bits are already H; the lower 32 of
     zo << 31 are discarded and its upper 32 bits hold y's low 32, so & p gives L.
   - H = blend(ye >> 31, zo), L = blend(ye, zo << 31) & p, y' = L + H in 32-bit lanes,
     y' mod p = unsigned min(y', y' - p) (y' - p wraps above 2^31 when y' < p), then the
     running unsigned min.
   Returns how many permutations it did (a multiple of 8). */
#ifndef CKN_MH_VECS
#define CKN_MH_VECS 4
#endif
__attribute__((target("avx2"), always_inline))
static inline void ckn_mh_block_avx2(const uint32_t* xs, ptrdiff_t m, const uint32_t* a,
                                     const uint32_t* b, uint32_t* out, const int nv) {
    const __m256i P32 = _mm256_set1_epi32(2147483647);
    const __m256i LO = _mm256_set1_epi64x(0xFFFFFFFFll);
    __m256i Ae[CKN_MH_VECS], Ao[CKN_MH_VECS], Be[CKN_MH_VECS], Bo[CKN_MH_VECS], O[CKN_MH_VECS];
    ptrdiff_t k;
    int v;
    for (v = 0; v < nv; v++) {
        __m256i av = _mm256_loadu_si256((const __m256i*)(a + 8 * v));
        __m256i bv = _mm256_loadu_si256((const __m256i*)(b + 8 * v));
        Ae[v] = av;                                             /* vpmuludq reads the low 32 */
        Ao[v] = _mm256_slli_epi64(_mm256_srli_epi64(av, 32), 1);            /* 2a, odd lanes */
        Be[v] = _mm256_and_si256(bv, LO);
        Bo[v] = _mm256_slli_epi64(_mm256_srli_epi64(bv, 32), 1);            /* 2b, odd lanes */
        O[v] = P32;
    }
    for (k = 0; k < m; k++) {
        uint32_t x = xs[k];
        __m256i xv;
        if (x >= 2147483647u) x -= 2147483647u;
        xv = _mm256_set1_epi64x((long long)x);
        for (v = 0; v < nv; v++) {
            __m256i ye = _mm256_add_epi64(_mm256_mul_epu32(Ae[v], xv), Be[v]);
            __m256i zo = _mm256_add_epi64(_mm256_mul_epu32(Ao[v], xv), Bo[v]);
            __m256i h = _mm256_blend_epi32(_mm256_srli_epi64(ye, 31), zo, 0xAA);
            __m256i l = _mm256_and_si256(
                _mm256_blend_epi32(ye, _mm256_slli_epi64(zo, 31), 0xAA), P32);
            __m256i y = _mm256_add_epi32(l, h);
            y = _mm256_min_epu32(y, _mm256_sub_epi32(y, P32));
            O[v] = _mm256_min_epu32(O[v], y);
        }
    }
    for (v = 0; v < nv; v++) _mm256_storeu_si256((__m256i*)(out + 8 * v), O[v]);
}
/* The body of a signature function: passes of ``vecs`` vectors of ``lanes`` permutations
   through ``block``, then single vectors; returns how many permutations it did. */
#define CKN_MH_PASSES(block, lanes, vecs)                                   \
    ptrdiff_t i0 = 0;                                                       \
    for (; i0 + (lanes) * (vecs) <= perms; i0 += (lanes) * (vecs))          \
        block(xs, m, a + i0, b + i0, out + i0, (vecs));                     \
    for (; i0 + (lanes) <= perms; i0 += (lanes))                            \
        block(xs, m, a + i0, b + i0, out + i0, 1);                          \
    return i0;
__attribute__((target("avx2")))
static ptrdiff_t ckn_mh_signature_avx2(const uint32_t* xs, ptrdiff_t m, const uint32_t* a,
                                       const uint32_t* b, ptrdiff_t perms, uint32_t* out) {
    CKN_MH_PASSES(ckn_mh_block_avx2, 8, CKN_MH_VECS)
}
#ifndef CKN_MH_VECS512
#define CKN_MH_VECS512 4
#endif
/* The fold kernel: 16 permutations per 512-bit vector (whole blocks of 16; returns how
   many it did), the even and the odd lanes multiplied by 2a with 2b + 2^32 added, so
   that each 64-bit product holds H + 1 and 2L in its two 32-bit halves; one vpermt2d
   gathers the 16 lanes' H + 1, one their 2L, and a rotation replaces the conditional
   subtraction (10 operations: two of them multiplies, vpmuludq). */
__attribute__((target("avx512f"), always_inline))
static inline void ckn_mh_block_fold_avx512(const uint32_t* xs, ptrdiff_t m,
                                            const uint32_t* a, const uint32_t* b,
                                            uint32_t* out, const int nv) {
    const __m512i LO = _mm512_set1_epi64(0xFFFFFFFFll);
    const __m512i ONE32 = _mm512_set1_epi64(1LL << 32);
    /* dword 2k <- ye's dword 2k + 1 (H), dword 2k + 1 <- zo's (16 + 2k + 1); and the
       low dwords (2L) likewise */
    const __m512i IH = _mm512_set_epi32(31, 15, 29, 13, 27, 11, 25, 9, 23, 7, 21, 5, 19, 3, 17, 1);
    const __m512i IL = _mm512_set_epi32(30, 14, 28, 12, 26, 10, 24, 8, 22, 6, 20, 4, 18, 2, 16, 0);
    __m512i Ae[CKN_MH_VECS512], Ao[CKN_MH_VECS512], Be[CKN_MH_VECS512];
    __m512i Bo[CKN_MH_VECS512], O[CKN_MH_VECS512];
    ptrdiff_t k;
    int v;
    for (v = 0; v < nv; v++) {
        __m512i av = _mm512_loadu_si512((const void*)(a + 16 * v));
        __m512i bv = _mm512_loadu_si512((const void*)(b + 16 * v));
        /* 2a and 2b + 2^32 per 64-bit lane: 2y + 2^32 < 2^64 holds H + 1 in its upper
           dword and 2L in its lower */
        Ae[v] = _mm512_slli_epi64(_mm512_and_si512(av, LO), 1);
        Ao[v] = _mm512_slli_epi64(_mm512_srli_epi64(av, 32), 1);
        Be[v] = _mm512_add_epi64(_mm512_slli_epi64(_mm512_and_si512(bv, LO), 1), ONE32);
        Bo[v] = _mm512_add_epi64(_mm512_slli_epi64(_mm512_srli_epi64(bv, 32), 1), ONE32);
        O[v] = _mm512_set1_epi32(-1);
    }
    for (k = 0; k < m; k++) {
        uint32_t x = xs[k];
        __m512i xv;
        if (x >= 2147483647u) x -= 2147483647u;
        xv = _mm512_set1_epi64((long long)x);
        for (v = 0; v < nv; v++) {
            __m512i ye = _mm512_add_epi64(_mm512_mul_epu32(Ae[v], xv), Be[v]);
            __m512i zo = _mm512_add_epi64(_mm512_mul_epu32(Ao[v], xv), Bo[v]);
            __m512i h = _mm512_permutex2var_epi32(ye, IH, zo);
            __m512i l2 = _mm512_permutex2var_epi32(ye, IL, zo);
            /* u = L + H + 1 = y' + 1: its rotation by one bit is 2r + 1 (u >= 2^31) or
               2r + 2, increasing in r = y mod p, so the min of the rotations is that of r */
            O[v] = _mm512_min_epu32(O[v], _mm512_rol_epi32(
                _mm512_add_epi32(h, _mm512_srli_epi32(l2, 1)), 1));
        }
    }
    for (v = 0; v < nv; v++)      /* r = (key - 1) >> 1; no shingle: all ones -> p */
        _mm512_storeu_si512((void*)(out + 16 * v),
                            _mm512_srli_epi32(_mm512_sub_epi32(O[v], _mm512_set1_epi32(1)), 1));
}
__attribute__((target("avx512f")))
static ptrdiff_t ckn_mh_signature_fold_avx512(const uint32_t* xs, ptrdiff_t m,
                                              const uint32_t* a, const uint32_t* b,
                                              ptrdiff_t perms, uint32_t* out) {
    CKN_MH_PASSES(ckn_mh_block_fold_avx512, 16, CKN_MH_VECS512)
}
/* The fixed-point kernel (Q = 2^64): with A = floor(a*Q/p) and
   B = floor(b*Q/p) + D, D = 3 * 2^31, T = (A*x + B) mod Q equals r*Q/p + E for
   r = (a*x + b) mod p and some real E in (2^31 - 1, 3 * 2^31], for every x < 2^32 (the
   truncations lose alpha*x + beta < 2^32 + 1; a*x + b = k*p + r and k*Q vanishes mod Q).
   As Q/p > 2^33, T is strictly increasing in r, so the running unsigned min of T picks the
   min r, and r = floor(T*p/Q) since E*p/Q is in (0, 3/4). Per 8 permutations and shingle:
   vpmullq, vpaddq, vpminuq. x is broadcast as a 32-bit value (x * (2^32 + 1) in each
   64-bit lane), so the multiplier held is A' = A * (1 - 2^32), the inverse of 2^32 + 1
   mod Q. 2^64 = p * (2^33 + 4) + 4 gives floor(v*Q/p) = v*(2^33 + 4) + floor(4v/p)
   without division (see ckn_mh_fixed_params). */
__attribute__((target("avx512f,avx512dq"), always_inline))
static inline void ckn_mh_block_fixed_avx512(const uint32_t* xs, ptrdiff_t m,
                                             const uint64_t* A, const uint64_t* B,
                                             ptrdiff_t perms, uint32_t* out, const int nv) {
    /* perms in (8 * (nv - 1), 8 * nv]: the last vector's lanes beyond it are masked */
    const __mmask8 last = (__mmask8)(0xFFu >> (8 * nv - perms));
    __m512i Av[8], Bv[8], O[8];
    ptrdiff_t k;
    int v;
    for (v = 0; v < nv; v++) {
        __mmask8 lanes = v == nv - 1 ? last : (__mmask8)0xFF;
        Av[v] = _mm512_maskz_loadu_epi64(lanes, (const void*)(A + 8 * v));
        Bv[v] = _mm512_maskz_loadu_epi64(lanes, (const void*)(B + 8 * v));
        O[v] = _mm512_set1_epi64(-1);
    }
    for (k = 0; k < m; k++) {
        __m512i X = _mm512_set1_epi32((int)xs[k]);
        for (v = 0; v < nv; v++)
            O[v] = _mm512_min_epu64(
                O[v], _mm512_add_epi64(_mm512_mullo_epi64(Av[v], X), Bv[v]));
    }
    for (v = 0; v < nv; v++) {
        /* floor(T*p/Q) = floor((T*2^31 - T)/Q): T >> 33, less 1 if (T << 31) mod Q < T;
           no shingle (O all ones): p */
        __m512i T = O[v];
        __m512i r = _mm512_mask_sub_epi64(
            _mm512_srli_epi64(T, 33), _mm512_cmplt_epu64_mask(_mm512_slli_epi64(T, 31), T),
            _mm512_srli_epi64(T, 33), _mm512_set1_epi64(1));
        r = _mm512_mask_mov_epi64(r, _mm512_cmpeq_epi64_mask(T, _mm512_set1_epi64(-1)),
                                  _mm512_set1_epi64(2147483647LL));
        _mm512_mask_cvtepi64_storeu_epi32((void*)(out + 8 * v),
                                          v == nv - 1 ? last : (__mmask8)0xFF, r);
    }
}
/* Signature slots [0, perms) for 1 <= perms <= 64 (A, B as ckn_mh_fixed_params writes
   them): one pass over the set with ceil(perms / 8) vectors. */
__attribute__((target("avx512f,avx512dq")))
static void ckn_mh_signature_fixed_avx512(const uint32_t* xs, ptrdiff_t m,
                                          const uint64_t* A, const uint64_t* B,
                                          ptrdiff_t perms, uint32_t* out) {
    switch ((perms + 7) / 8) {
    case 8: ckn_mh_block_fixed_avx512(xs, m, A, B, perms, out, 8); break;
    case 7: ckn_mh_block_fixed_avx512(xs, m, A, B, perms, out, 7); break;
    case 6: ckn_mh_block_fixed_avx512(xs, m, A, B, perms, out, 6); break;
    case 5: ckn_mh_block_fixed_avx512(xs, m, A, B, perms, out, 5); break;
    case 4: ckn_mh_block_fixed_avx512(xs, m, A, B, perms, out, 4); break;
    case 3: ckn_mh_block_fixed_avx512(xs, m, A, B, perms, out, 3); break;
    case 2: ckn_mh_block_fixed_avx512(xs, m, A, B, perms, out, 2); break;
    default: ckn_mh_block_fixed_avx512(xs, m, A, B, perms, out, 1); break;
    }
}
/* The shingle values of width 3 (minhash_shingles) for shingles [0, count - count % 8),
   8 at a time in 64-bit lanes: the three splitmix64 finalisers with vpmullq, the two
   Mersenne folds and the conditional subtraction (an unsigned min), narrowed to 32 bits.
   Returns how many it did. */
__attribute__((target("avx512f,avx512dq"), always_inline))
static inline __m512i ckn_mh_mix64x8(__m512i z) {
    z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 30));
    z = _mm512_mullo_epi64(z, _mm512_set1_epi64((long long)0xBF58476D1CE4E5B9ULL));
    z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 27));
    z = _mm512_mullo_epi64(z, _mm512_set1_epi64((long long)0x94D049BB133111EBULL));
    return _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
}
__attribute__((target("avx512f,avx512dq")))
static ptrdiff_t ckn_mh_shingles3_avx512(const uint64_t* t, ptrdiff_t count, uint32_t* out) {
    const __m512i p = _mm512_set1_epi64(2147483647LL);
    ptrdiff_t k;
    for (k = 0; k + 8 <= count; k += 8) {
        __m512i h = ckn_mh_mix64x8(_mm512_loadu_si512((const void*)(t + k)));
        h = ckn_mh_mix64x8(_mm512_xor_si512(h, _mm512_loadu_si512((const void*)(t + k + 1))));
        h = ckn_mh_mix64x8(_mm512_xor_si512(h, _mm512_loadu_si512((const void*)(t + k + 2))));
        h = _mm512_add_epi64(_mm512_and_si512(h, p), _mm512_srli_epi64(h, 31));
        h = _mm512_add_epi64(_mm512_and_si512(h, p), _mm512_srli_epi64(h, 31));
        h = _mm512_min_epu64(h, _mm512_sub_epi64(h, p));
        _mm256_storeu_si256((__m256i*)(out + k), _mm512_cvtepi64_epi32(h));
    }
    return k;
}
#else
static ptrdiff_t ckn_mh_signature_avx2(const uint32_t* xs, ptrdiff_t m, const uint32_t* a,
                                       const uint32_t* b, ptrdiff_t perms, uint32_t* out) {
    (void)xs; (void)m; (void)a; (void)b; (void)perms; (void)out;
    return 0;
}
static ptrdiff_t ckn_mh_signature_fold_avx512(const uint32_t* xs, ptrdiff_t m,
                                              const uint32_t* a, const uint32_t* b,
                                              ptrdiff_t perms, uint32_t* out) {
    (void)xs; (void)m; (void)a; (void)b; (void)perms; (void)out;
    return 0;
}
static void ckn_mh_signature_fixed_avx512(const uint32_t* xs, ptrdiff_t m, const uint64_t* A,
                                          const uint64_t* B, ptrdiff_t perms, uint32_t* out) {
    (void)xs; (void)m; (void)A; (void)B; (void)perms; (void)out;
}
static ptrdiff_t ckn_mh_shingles3_avx512(const uint64_t* t, ptrdiff_t count, uint32_t* out) {
    (void)t; (void)count; (void)out;
    return 0;
}
#endif
#endif /* CKN_MINHASH_SIMD_H */
