/* The scanner's AVX2 / AVX-512 path for ASCII text (ckn/scanner.pyx): word edges from
   64-byte masks, each word hashed (FNV-1a-64, lowercased) without a branch on its length,
   and the CPU feature checks. On other targets the functions report no SIMD. */
#ifndef CKN_SCANNER_SIMD_H
#define CKN_SCANNER_SIMD_H

#include <stdint.h>

#include <string.h>
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>
/* FNV-1a-64 of the len >= 1 bytes at d + s, each mapped through tbl (lowercase). Words of
   up to 8 bytes take 8 fixed steps (reads clamped to the word's last byte) and keep the
   result of step len, so no branch depends on the length. The 8-byte load is read
   little-endian (byte k at bits 8k): this block is x86-64 only. */
static inline uint64_t ckn_sc_fnv_word(const uint8_t* d, int64_t s, int64_t len, int64_t n,
                                       const uint8_t* tbl) {
    uint64_t h = 0xCBF29CE484222325ULL, steps[8], w, upper;
    int64_t j, last = s + len - 1;
    int k;
    if (len <= 8 && s + 8 <= n) {
        /* the 8 bytes at once; every byte of the word is [0-9A-Za-z_], so lowercase is
           bit 0x20 added to the bytes 'A'..'Z' (found with byte-wise carries) */
        memcpy(&w, d + s, 8);
        upper = (w + 0x3F3F3F3F3F3F3F3FULL) & ~(w + 0x2525252525252525ULL)
                & ~w & 0x8080808080808080ULL;
        w |= upper >> 2;
        for (k = 0; k < 8; k++) {
            h = (h ^ ((w >> (8 * k)) & 0xFF)) * 0x100000001B3ULL;
            steps[k] = h;
        }
        return steps[len - 1];
    }
    if (len <= 8) {
        for (k = 0; k < 8; k++) {
            j = s + k < last ? s + k : last;
            h = (h ^ tbl[d[j]]) * 0x100000001B3ULL;
            steps[k] = h;
        }
        return steps[len - 1];
    }
    for (j = s; j <= last; j++)
        h = (h ^ tbl[d[j]]) * 0x100000001B3ULL;
    return h;
}
/* Bit j set iff d[j] is an ASCII word byte [0-9A-Za-z_], for the 32 bytes at d (a byte
   >= 128 is not: neither test below accepts it). */
__attribute__((target("avx2")))
static inline uint32_t ckn_sc_word32(const uint8_t* d) {
    __m256i x = _mm256_loadu_si256((const __m256i*)d);
    __m256i digit = _mm256_sub_epi8(x, _mm256_set1_epi8('0'));
    __m256i letter = _mm256_sub_epi8(_mm256_or_si256(x, _mm256_set1_epi8(0x20)),
                                     _mm256_set1_epi8('a'));
    __m256i word = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_cmpeq_epi8(_mm256_min_epu8(digit, _mm256_set1_epi8(9)), digit),
            _mm256_cmpeq_epi8(_mm256_min_epu8(letter, _mm256_set1_epi8(25)), letter)),
        _mm256_cmpeq_epi8(x, _mm256_set1_epi8('_')));
    return (uint32_t)_mm256_movemask_epi8(word);
}
/* The word bits of d[i .. i + 64), bits at n and beyond clear (0 <= i <= n). */
__attribute__((target("avx2")))
static inline uint64_t ckn_sc_word64(const uint8_t* d, int64_t i, int64_t n) {
    uint8_t tail[64];
    if (i + 64 <= n)
        return (uint64_t)ckn_sc_word32(d + i) | ((uint64_t)ckn_sc_word32(d + i + 32) << 32);
    memset(tail, 0, 64);                 /* a zero byte is a separator */
    if (n > i)
        memcpy(tail, d + i, (size_t)(n - i));
    return (uint64_t)ckn_sc_word32(tail) | ((uint64_t)ckn_sc_word32(tail + 32) << 32);
}
/* ckn_sc_fnv_word of the count words out[k] = start | end << 32, in place, 8 at a time
   in the 64-bit lanes of a 512-bit vector (AVX-512F + DQ for vpmullq), two vectors at a
   time to overlap their multiply chains. A word of up to 16 bytes whose last 8-byte read
   stays inside the text is gathered as one or two 8-byte loads, lowercased with the same
   byte-wise carries, and hashed in 8 masked steps per load (a lane stops once its length
   is reached; the second load's steps run only as far as the longest word of the pair of
   vectors, and only when one is longer than 8 bytes);
   the other words take ckn_sc_fnv_word. */
__attribute__((target("avx512f,avx512dq"), always_inline))
static inline __m512i ckn_sc_lower8(__m512i w) {
    /* upper = (w + 0x3F..) & ~(w + 0x25..) & ~w & 0x80.. (0x10: A & ~B & ~C) */
    __m512i upper = _mm512_and_si512(
        _mm512_ternarylogic_epi64(_mm512_add_epi64(w, _mm512_set1_epi64(0x3F3F3F3F3F3F3F3FLL)),
                                  _mm512_add_epi64(w, _mm512_set1_epi64(0x2525252525252525LL)),
                                  w, 0x10),
        _mm512_set1_epi64((long long)0x8080808080808080ULL));
    return _mm512_or_si512(w, _mm512_srli_epi64(upper, 2));
}
__attribute__((target("avx512f,avx512dq"), always_inline))
static inline __mmask8 ckn_sc_fnv8_load(const uint8_t* d, const uint64_t* out, __m512i limit,
                                        __m512i* start, __m512i* len) {
    const __m512i eight = _mm512_set1_epi64(8), sixteen = _mm512_set1_epi64(16);
    __m512i bounds = _mm512_loadu_si512((const void*)out);
    __m512i room;
    *start = _mm512_and_si512(bounds, _mm512_set1_epi64(0xFFFFFFFFLL));
    *len = _mm512_sub_epi64(_mm512_srli_epi64(bounds, 32), *start);
    room = _mm512_sub_epi64(limit, *start);               /* bytes readable from start */
    return (_mm512_cmple_epu64_mask(*len, eight) & _mm512_cmple_epu64_mask(eight, room))
           | (_mm512_cmple_epu64_mask(*len, sixteen) & _mm512_cmple_epu64_mask(sixteen, room));
}
__attribute__((target("avx512f,avx512dq"), always_inline))
static inline void ckn_sc_fnv8_steps(__m512i* ha, __m512i* hb, __m512i wa, __m512i wb,
                                     __m512i la, __m512i lb, int first, int last) {
    const __m512i prime = _mm512_set1_epi64(0x100000001B3LL);
    const __m512i byte = _mm512_set1_epi64(0xFF);
    int step;
    for (step = first; step < last; step++) {
        __m512i st = _mm512_set1_epi64(step);
        __mmask8 ma = _mm512_cmpgt_epu64_mask(la, st), mb = _mm512_cmpgt_epu64_mask(lb, st);
        /* h ^ (w & 0xFF) (0x78: A ^ (B & C)), then * prime, in the live lanes */
        *ha = _mm512_mask_ternarylogic_epi64(*ha, ma, wa, byte, 0x78);
        *hb = _mm512_mask_ternarylogic_epi64(*hb, mb, wb, byte, 0x78);
        *ha = _mm512_mask_mullo_epi64(*ha, ma, *ha, prime);
        *hb = _mm512_mask_mullo_epi64(*hb, mb, *hb, prime);
        wa = _mm512_srli_epi64(wa, 8);
        wb = _mm512_srli_epi64(wb, 8);
    }
}
__attribute__((target("avx512f,avx512dq")))
static void ckn_sc_fnv_words_avx512(const uint8_t* d, int64_t n, uint64_t* out,
                                    int64_t count, const uint8_t* tbl) {
    const __m512i limit = _mm512_set1_epi64(n), eight = _mm512_set1_epi64(8);
    const __m512i zero = _mm512_setzero_si512();
    int64_t k, s;
    unsigned rest;
    int j;
    for (k = 0; k + 16 <= count; k += 16) {
        __m512i sa, sb, la, lb;
        __m512i ha = _mm512_set1_epi64((long long)0xCBF29CE484222325ULL), hb = ha;
        __mmask8 fa = ckn_sc_fnv8_load(d, out + k, limit, &sa, &la);
        __mmask8 fb = ckn_sc_fnv8_load(d, out + k + 8, limit, &sb, &lb);
        __mmask8 xa = fa & _mm512_cmpgt_epu64_mask(la, eight);
        __mmask8 xb = fb & _mm512_cmpgt_epu64_mask(lb, eight);
        ckn_sc_fnv8_steps(&ha, &hb,
                          ckn_sc_lower8(_mm512_mask_i64gather_epi64(zero, fa, sa, (const void*)d, 1)),
                          ckn_sc_lower8(_mm512_mask_i64gather_epi64(zero, fb, sb, (const void*)d, 1)),
                          la, lb, 0, 8);
        if (xa | xb)               /* up to the longest word of the two vectors (9..16) */
            ckn_sc_fnv8_steps(
                &ha, &hb,
                ckn_sc_lower8(_mm512_mask_i64gather_epi64(zero, xa, _mm512_add_epi64(sa, eight),
                                                          (const void*)d, 1)),
                ckn_sc_lower8(_mm512_mask_i64gather_epi64(zero, xb, _mm512_add_epi64(sb, eight),
                                                          (const void*)d, 1)),
                la, lb, 8,
                (int)_mm512_reduce_max_epu64(_mm512_max_epu64(
                    _mm512_maskz_mov_epi64(xa, la), _mm512_maskz_mov_epi64(xb, lb))));
        _mm512_mask_storeu_epi64((void*)(out + k), fa, ha);
        _mm512_mask_storeu_epi64((void*)(out + k + 8), fb, hb);
        rest = ((unsigned)(~fa) & 0xFFu) | (((unsigned)(~fb) & 0xFFu) << 8);
        while (rest) {
            j = __builtin_ctz(rest);
            rest &= rest - 1;
            s = (int64_t)(out[k + j] & 0xFFFFFFFFULL);
            out[k + j] = ckn_sc_fnv_word(d, s, (int64_t)(out[k + j] >> 32) - s, n, tbl);
        }
    }
    for (; k < count; k++) {
        s = (int64_t)(out[k] & 0xFFFFFFFFULL);
        out[k] = ckn_sc_fnv_word(d, s, (int64_t)(out[k] >> 32) - s, n, tbl);
    }
}
static int ckn_sc_have_avx512(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? 1 : 0;
}
/* The word bits of d[i .. i + 64) with AVX-512BW (one 64-byte compare; bits at n and
   beyond clear), as ckn_sc_word64 finds them. */
__attribute__((target("avx512f,avx512bw"), always_inline))
static inline uint64_t ckn_sc_word64_512(const uint8_t* d, int64_t i, int64_t n) {
    __mmask64 live = i + 64 <= n ? ~(__mmask64)0 : (((__mmask64)1 << (n - i)) - 1);
    __m512i x = _mm512_maskz_loadu_epi8(live, (const void*)(d + i));
    __m512i digit = _mm512_sub_epi8(x, _mm512_set1_epi8('0'));
    __m512i letter = _mm512_sub_epi8(_mm512_or_si512(x, _mm512_set1_epi8(0x20)),
                                     _mm512_set1_epi8('a'));
    return (uint64_t)(live & (_mm512_cmple_epu8_mask(digit, _mm512_set1_epi8(9))
                              | _mm512_cmple_epu8_mask(letter, _mm512_set1_epi8(25))
                              | _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('_'))));
}
/* Append base + the positions of the set bits of bits (ascending) to out[seen..] as 64-bit
   words (``ends``: OR'd into the upper halves of the words already there): the positions
   compressed into bytes (VBMI2), widened 8 at a time, masked stores. Returns the new
   seen. */
__attribute__((target("avx512f,avx512bw,avx512vbmi2"), always_inline))
static inline int64_t ckn_sc_put_bits(uint64_t* out, int64_t seen, uint64_t bits,
                                      int64_t base, int ends) {
    const __m512i iota = _mm512_set_epi8(
        63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
        47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
        31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    uint8_t pos[64];
    int c = __builtin_popcountll(bits), g;
    _mm512_storeu_si512((void*)pos, _mm512_maskz_compress_epi8((__mmask64)bits, iota));
    for (g = 0; g < c; g += 8) {
        int left = c - g;
        __mmask8 mask = (__mmask8)(left >= 8 ? 0xFF : (1u << left) - 1u);
        __m512i at = _mm512_add_epi64(
            _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i*)(pos + g))),
            _mm512_set1_epi64(base));
        if (ends)
            at = _mm512_or_si512(_mm512_slli_epi64(at, 32),
                                 _mm512_maskz_loadu_epi64(mask, (const void*)(out + seen + g)));
        _mm512_mask_storeu_epi64((void*)(out + seen + g), mask, at);
    }
    return seen + c;
}
/* The word bounds of ckn_sc_ascii_terms_avx2 with AVX-512 (BW, VBMI2): the same words
   packed start | end << 32 into out, without a branch per word. Returns how many. */
__attribute__((target("avx512f,avx512bw,avx512vbmi2")))
static int64_t ckn_sc_bounds_avx512(const uint8_t* d, int64_t n, uint64_t* out) {
    int64_t base, starts_seen = 0, ends_seen = 0;
    uint64_t m, shifted, carry = 0;
    for (base = 0; base < n; base += 64) {
        m = ckn_sc_word64_512(d, base, n);
        shifted = (m << 1) | carry;
        carry = m >> 63;
        starts_seen = ckn_sc_put_bits(out, starts_seen, m & ~shifted, base, 0);
        ends_seen = ckn_sc_put_bits(out, ends_seen, ~m & shifted, base, 1);
    }
    if (carry)                           /* n is a multiple of 64 and ends in a word */
        out[ends_seen++] |= (uint64_t)n << 32;
    return starts_seen;
}
static int ckn_sc_have_vbmi2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi2") ? 1 : 0;
}
/* scanner_ascii_terms for n < 2^32: first every word's [start, end) from 64-byte masks,
   packed start | end << 32 into out (a word's start comes before its end, so the k-th end
   completes out[k]), then each word hashed in place (with ``wide`` >= 1, by
   ckn_sc_fnv_words_avx512; with ``wide`` 2 the bounds come from ckn_sc_bounds_avx512).
   No branch per byte or per word. */
__attribute__((target("avx2")))
static int64_t ckn_sc_ascii_terms_avx2(const uint8_t* d, int64_t n, uint64_t* out,
                                       const uint8_t* tbl, int wide) {
    int64_t base, starts_seen = 0, ends_seen = 0, k, s;
    uint64_t m, shifted, starts, ends, carry = 0;
    if (wide == 2) {
        starts_seen = ckn_sc_bounds_avx512(d, n, out);
        ckn_sc_fnv_words_avx512(d, n, out, starts_seen, tbl);
        return starts_seen;
    }
    for (base = 0; base < n; base += 64) {
        m = ckn_sc_word64(d, base, n);
        shifted = (m << 1) | carry;
        starts = m & ~shifted;
        ends = ~m & shifted;
        carry = m >> 63;
        while (starts) {
            out[starts_seen++] = (uint64_t)(base + __builtin_ctzll(starts));
            starts &= starts - 1;
        }
        while (ends) {
            out[ends_seen++] |= (uint64_t)(base + __builtin_ctzll(ends)) << 32;
            ends &= ends - 1;
        }
    }
    if (carry)                           /* n is a multiple of 64 and ends in a word */
        out[ends_seen++] |= (uint64_t)n << 32;
    if (wide) {
        ckn_sc_fnv_words_avx512(d, n, out, starts_seen, tbl);
        return starts_seen;
    }
    for (k = 0; k < starts_seen; k++) {
        s = (int64_t)(out[k] & 0xFFFFFFFFULL);
        out[k] = ckn_sc_fnv_word(d, s, (int64_t)(out[k] >> 32) - s, n, tbl);
    }
    return starts_seen;
}
static int ckn_sc_have_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}
#else
static int64_t ckn_sc_ascii_terms_avx2(const uint8_t* d, int64_t n, uint64_t* out,
                                       const uint8_t* tbl, int wide) {
    (void)d; (void)n; (void)out; (void)tbl; (void)wide;
    return 0;
}
static int ckn_sc_have_avx2(void) { return 0; }
static int ckn_sc_have_avx512(void) { return 0; }
static int ckn_sc_have_vbmi2(void) { return 0; }
#endif

#endif /* CKN_SCANNER_SIMD_H */
