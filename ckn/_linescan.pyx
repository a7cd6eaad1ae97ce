"""Candidate-segment pass of the sanitizer (``ckn.sanitizer``): which segments can match a rule.

One ``noexcept nogil`` pass over the text's code points (PEP 393 storage, read in place) splits it
on ``\\n`` into lines, cuts a line longer than ``segment_min`` code points into sentence segments
(``sanitizer._segments``: after ``.``, ``!`` or ``?`` followed by a space, tab, CR, FF or VT, and
after ``。``, ``！`` or ``？``), and keeps, for each segment, only what the Python pre-filter
``sanitizer._ascii_plan`` would look at:

* a segment with any code point >= 128 is a candidate (the Python normalisation — NFKC,
  invisible characters, Tag decoding, look-alikes — decides it), unless, with ``checks`` and
  their fold table, each of its code points has a context-free ASCII fold (accents,
  typographic punctuation, fullwidth forms, ligatures: ``sanitizer._fold`` code point by code
  point): then its fold is read as one plain-ASCII segment, with the directive model's bit
  set (the model scores every non-ASCII segment), and checked as below (``_folded_mask``);
* a plain-ASCII segment is a candidate when one of its words is an anchor word or it contains
  a marker pair (``<|``, ``</``, ``![`` …), and the rule's requirements are met. Words are taken
  as ``_ascii_plan`` takes them: bytes mapped through the same 256-byte table (lower case, leet
  digits read as letters, punctuation and control characters as a break) and split on ASCII
  whitespace, and once more with in-word punctuation dropped (the kernel always builds both
  word views; ``_ascii_plan`` builds the second only when it sees a disguise). Table words are
  kept as 64-bit hashes (``ckn_ls_hash``) in an open-addressing table, each with the bit set
  of the rules it anchors (128 bits) and of the requirement groups it belongs to; the
  segment's bit set tells Python which rules to run. A word is hashed only when its quick key
  (``ckn_ls_quick_key``: its first 8 bytes and its length, 16 bits) is set in an 8 KiB bit
  filter of the table words' keys, which most words of a text are not. A hash collision or
  the extra view only adds rules.
* requirements (``sanitizer._needs_of``): word sets, character sets and a set for the first word
  of a view; each set is one group bit, set when one of its words or characters occurs; a rule
  bit survives when one of its ways to meet them holds. Group bits (128) are shared modulo 128
  when there are more groups, which only keeps rules.
* a segment with a run of spaced-out single letters is read once more with spaces and
  punctuation left out, and every table word found in that string counts (``_substring_bits``).

* with ``checks`` (``ViewChecks``), a plain-ASCII candidate's views are then built as the
  sanitizer builds them (lower-cased, de-obfuscated) and checked: rule bits whose rules' literal
  formulas hold on no view, and the directive model's bit when the model scores the views at or
  below its threshold, are dropped (``_checked``).

So the pass is conservative: every segment it drops is one that ``scan_line`` rejects without
running a regex (or on which every regex it would run fails, and the model does not fire), and
the Python rules decide every segment it keeps. The test-suite checks that ``sanitize_text``
gives the same result with and without it, and that the segments are those of
``sanitizer._segments``.
"""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcmp, memcpy, memset

from ckn._directive cimport AsciiScorer, DirectiveTables, directive_ranks_room, directive_weight_sum
from ckn._rulefilter cimport FormulaBits, RuleBitFormulas, formulas_check, found_set_ready
from ckn._passes cimport ckn_pass, pass_capsule, run_pass
from ckn._prefetch cimport ckn_prefetch_start
from ckn.typedefs cimport CKN_ENOMEM, CKN_OK, NOGIL_MIN_WORK, index_t

__all__ = ["LineScanner", "NON_ASCII", "SIMD", "SPACED_OUT", "ViewChecks", "deobfuscated_view",
           "has_tag_characters", "mapped_code_points", "mixed_script"]


cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    uint32_t PyUnicode_READ(int kind, const void* data, Py_ssize_t index) noexcept nogil
    bint Py_UNICODE_ISALNUM(uint32_t ch) noexcept nogil
    bint Py_UNICODE_ISDECIMAL(uint32_t ch) noexcept nogil


cdef enum:
    _MIN_SPACED = 4   # letters of a spaced-out run: " [a-z] {1,3}[a-z] {1,3}[a-z] {1,3}[a-z](?![a-z])"
    _MARKER_START = 1  # _Plan.flags: the first character of a marker pair
    _SENTENCE_MARK = 2  # _Plan.flags: ".", "!" or "?"

# A candidate's mask has 128 bits (two words, ``lo`` = bits 0-63, ``hi`` = bits 64-127): rule
# bits 0-125 and two flag bits.
NON_ASCII = 1 << 127
SPACED_OUT = 1 << 126
cdef uint64_t _NON_ASCII_HI = 1ULL << 63
cdef uint64_t _SPACED_OUT_HI = 1ULL << 62


ctypedef struct _Mask:
    uint64_t lo
    uint64_t hi
_LOW64 = (1 << 64) - 1


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* Index of the lowest set bit of a non-zero word. */
    #if defined(__GNUC__) || defined(__clang__)
    static inline int ckn_ls_ctz(uint64_t x) { return __builtin_ctzll(x); }
    #elif defined(_MSC_VER)
    #include <intrin.h>
    static inline int ckn_ls_ctz(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    static inline int ckn_ls_ctz(uint64_t x) { int i = 0; while (!(x & 1)) { x >>= 1; i++; } return i; }
    #endif
    /* The 8 bytes at p as one word (any alignment, native byte order). */
    static inline uint64_t ckn_ls_load8(const uint8_t* p) { uint64_t w; memcpy(&w, p, 8); return w; }
    /* ckn_ls_masks[n][k]: the word whose first min(max(n - 8k, 0), 8) bytes in memory are 0xFF,
       the others 0 (so in either byte order it keeps the bytes of an n-byte string's k-th word). */
    static uint64_t ckn_ls_masks[25][3];
    static void ckn_ls_init_masks(void) {
        int n, k, r;
        uint8_t b[8];
        for (n = 0; n <= 24; n++)
            for (k = 0; k < 3; k++) {
                r = n - 8 * k;
                r = r < 0 ? 0 : (r > 8 ? 8 : r);
                memset(b, 0, 8);
                memset(b, 0xFF, (size_t)r);
                memcpy(&ckn_ls_masks[n][k], b, 8);
            }
    }
    /* A 64-bit hash of the n bytes at p, never 0 (0 marks an empty slot of the word table).
       Up to 24 bytes (every table word, usually): three masked 8-byte reads, no branch, so
       p[n:24] must be readable; longer: one read per 8 bytes (p[n:n + 8] readable). Injective
       on the strings of one length up to 8 bytes. */
    static inline uint64_t ckn_ls_hash(const uint8_t* p, int64_t n) {
        uint64_t h, w;
        int64_t k;
        if (n <= 24) {
            const uint64_t* m = ckn_ls_masks[n];
            h = ((ckn_ls_load8(p) & m[0]) * 0x9E3779B97F4A7C15ULL)
                ^ ((ckn_ls_load8(p + 8) & m[1]) * 0xC2B2AE3D27D4EB4FULL)
                ^ ((ckn_ls_load8(p + 16) & m[2]) * 0x165667B19E3779F9ULL)
                ^ ((uint64_t)n * 0xD6E8FEB86659FD93ULL);
        } else {
            h = (uint64_t)n * 0xD6E8FEB86659FD93ULL;
            for (k = 0; k < n; k += 8) {
                w = ckn_ls_load8(p + k);
                if (n - k < 8) w &= ckn_ls_masks[n - k][0];
                h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
                h ^= h >> 29;
            }
        }
        h ^= h >> 32;
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 29;
        return h ? h : 1;
    }
    /* A 16-bit key of the n >= 1 bytes at p from their first 8 bytes and n (one 8-byte read,
       so p[n:8] must be readable): a quarter of ckn_ls_hash's work, for the filter that most
       words of a text fail. */
    static inline uint32_t ckn_ls_quick_key(const uint8_t* p, int64_t n) {
        uint64_t w = ckn_ls_load8(p) & ckn_ls_masks[n < 8 ? n : 8][0];
        return (uint32_t)(((w ^ (uint64_t)n) * 0x9E3779B97F4A7C15ULL) >> 48);
    }
    """
    int ckn_ls_ctz(uint64_t x) noexcept nogil
    void ckn_ls_init_masks() noexcept nogil
    uint64_t ckn_ls_hash(const uint8_t* p, int64_t n) noexcept nogil
    uint32_t ckn_ls_quick_key(const uint8_t* p, int64_t n) noexcept nogil


cdef extern from *:
    """
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #include <immintrin.h>
    /* _translate_line for the whole 64-byte blocks of a one-byte-per-code-point line, 32 bytes
       per step: the special bits from two 16-entry shuffles (lut[128:144]: for each low nibble,
       the bit 1 << h of every high nibble h < 8 whose byte is plain; lut[144:160]: 1 << h for
       h < 8, 0 above, so a byte >= 128 is special), the plain-break bits likewise (lut[160:176]:
       the bit 1 << h of every high nibble h < 8 whose byte is a plain break), the table bytes
       from eight 16-entry shuffles (lut[16h:16h + 16] = table[16h:16h + 16]), one per high
       nibble. Returns how many bytes it did (a multiple of 64). */
    __attribute__((target("avx2")))
    static int64_t ckn_ls_translate_avx2(const uint8_t* d, int64_t n, const uint8_t* lut,
                                         uint8_t* work, uint64_t* special, uint64_t* breaks) {
        const __m256i nibble = _mm256_set1_epi8(0x0F);
        const __m256i zero = _mm256_setzero_si256();
        const __m256i lo_plain =
            _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)(lut + 128)));
        const __m256i hi_bit =
            _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)(lut + 144)));
        const __m256i lo_break =
            _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)(lut + 160)));
        __m256i rows[8];
        int64_t k;
        int h, half;
        for (h = 0; h < 8; h++)
            rows[h] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)(lut + 16 * h)));
        for (k = 0; k + 64 <= n; k += 64) {
            uint64_t bits = 0, brk = 0;
            for (half = 0; half < 2; half++) {
                __m256i x = _mm256_loadu_si256((const __m256i*)(d + k + 32 * half));
                __m256i lo = _mm256_and_si256(x, nibble);
                __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
                __m256i plain = _mm256_and_si256(_mm256_shuffle_epi8(lo_plain, lo),
                                                 _mm256_shuffle_epi8(hi_bit, hi));
                __m256i hb = _mm256_and_si256(_mm256_shuffle_epi8(lo_break, lo),
                                              _mm256_shuffle_epi8(hi_bit, hi));
                __m256i t = zero;
                uint32_t sp = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(plain, zero));
                uint32_t pb = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hb, zero));
                for (h = 0; h < 8; h++)
                    t = _mm256_blendv_epi8(t, _mm256_shuffle_epi8(rows[h], lo),
                                           _mm256_cmpeq_epi8(hi, _mm256_set1_epi8((char)h)));
                _mm256_storeu_si256((__m256i*)(work + k + 32 * half), t);
                bits |= (uint64_t)sp << (32 * half);
                brk |= (uint64_t)pb << (32 * half);
            }
            special[k >> 6] = bits;
            breaks[k >> 6] = brk;
        }
        return k;
    }
    static int ckn_ls_have_avx2(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    #else
    static int64_t ckn_ls_translate_avx2(const uint8_t* d, int64_t n, const uint8_t* lut,
                                         uint8_t* work, uint64_t* special, uint64_t* breaks) {
        (void)d; (void)n; (void)lut; (void)work; (void)special; (void)breaks;
        return 0;
    }
    static int ckn_ls_have_avx2(void) { return 0; }
    #endif
    """
    int64_t ckn_ls_translate_avx2(const uint8_t* d, int64_t n, const uint8_t* lut, uint8_t* work,
                                  uint64_t* special, uint64_t* breaks) noexcept nogil
    int ckn_ls_have_avx2() noexcept nogil


cdef extern from *:
    """
    /* What decides the de-obfuscated view of a lower-cased ASCII view (ckn_ls_view_facts). */
    typedef struct {
        int64_t apostrophes, double_quotes;
        int64_t singles;  /* letters with a separator (or an apostrophe) on each side */
        unsigned flags;   /* CKN_LS_* */
    } ckn_ls_facts;
    enum {
        CKN_LS_KEPT = 1,        /* "]" or 28..31 (FS, GS, RS, US) */
        CKN_LS_ANGLE = 2,       /* "<" */
        CKN_LS_UNDERSCORE = 4,  /* "_" */
        CKN_LS_LEET = 8,        /* [0-9@$] next to a letter */
        CKN_LS_INTRA = 16,      /* [.\\-*|~^+`] between two letters */
        CKN_LS_DIGIT = 32       /* [0-9@$] anywhere */
    };
    /* Bit i: byte i of a block of up to 64 lower-cased bytes is of the class. */
    typedef struct {
        uint64_t letter, leet, intra, sep, apos, dquote, kept, angle, under;
    } ckn_ls_classes;
    /* The set bits of x (SWAR: the baseline x86-64 target has no popcnt instruction, and
       __builtin_popcountll would call libgcc). */
    static inline int ckn_ls_popcount(uint64_t x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    /* The classes of out[0:len] = d[0:len] lower-cased (every byte < 128), one byte at a time. */
    static void ckn_ls_classes_portable(const uint8_t* d, int64_t len, uint8_t* out,
                                        ckn_ls_classes* c) {
        int64_t i;
        memset(c, 0, sizeof *c);
        for (i = 0; i < len; i++) {
            uint8_t x = d[i];
            uint64_t b = 1ULL << i;
            if (x >= 'A' && x <= 'Z') x += 32;
            out[i] = x;
            if (x >= 'a' && x <= 'z') c->letter |= b;
            if ((x >= '0' && x <= '9') || x == '@' || x == '$') c->leet |= b;
            if (x == '.' || x == '-' || x == '*' || x == '|' || x == '~' || x == '^' || x == '+'
                || x == '`') c->intra |= b;
            if (x == ' ' || x == '.' || x == '-' || x == '_' || x == '*' || x == '/' || x == '|'
                || x == '~' || x == '+' || x == ',' || x == '\\'') c->sep |= b;
            if (x == '\\'') c->apos |= b;
            if (x == '"') c->dquote |= b;
            if (x == ']' || (x >= 28 && x <= 31)) c->kept |= b;
            if (x == '<') c->angle |= b;
            if (x == '_') c->under |= b;
        }
    }
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    #define CKN_LS_EQ(x, ch) _mm_cmpeq_epi8((x), _mm_set1_epi8((char)(ch)))
    /* lo <= x <= hi for bytes below 128 (signed compares) */
    #define CKN_LS_IN(x, lo, hi) \
        _mm_and_si128(_mm_cmpgt_epi8((x), _mm_set1_epi8((char)((lo) - 1))), \
                      _mm_cmplt_epi8((x), _mm_set1_epi8((char)((hi) + 1))))
    #define CKN_LS_BITS(v, j) ((uint64_t)(uint16_t)_mm_movemask_epi8(v) << (16 * (j)))
    /* ckn_ls_classes_portable of 64 bytes, 16 at a time (SSE2, part of every x86-64 CPU). */
    static void ckn_ls_classes_sse2(const uint8_t* d, uint8_t* out, ckn_ls_classes* c) {
        int j;
        memset(c, 0, sizeof *c);
        for (j = 0; j < 4; j++) {
            __m128i x = _mm_loadu_si128((const __m128i*)(d + 16 * j));
            __m128i both, under, apos;
            x = _mm_add_epi8(x, _mm_and_si128(CKN_LS_IN(x, 'A', 'Z'), _mm_set1_epi8(32)));
            _mm_storeu_si128((__m128i*)(out + 16 * j), x);
            /* in both intra and sep: . - * | ~ + */
            both = _mm_or_si128(_mm_or_si128(CKN_LS_EQ(x, '.'), CKN_LS_EQ(x, '-')),
                                _mm_or_si128(_mm_or_si128(CKN_LS_EQ(x, '*'), CKN_LS_EQ(x, '|')),
                                             _mm_or_si128(CKN_LS_EQ(x, '~'), CKN_LS_EQ(x, '+'))));
            under = CKN_LS_EQ(x, '_');
            apos = CKN_LS_EQ(x, '\\'');
            c->letter |= CKN_LS_BITS(CKN_LS_IN(x, 'a', 'z'), j);
            c->leet |= CKN_LS_BITS(_mm_or_si128(
                CKN_LS_IN(x, '0', '9'), _mm_or_si128(CKN_LS_EQ(x, '@'), CKN_LS_EQ(x, '$'))), j);
            c->intra |= CKN_LS_BITS(_mm_or_si128(both, _mm_or_si128(CKN_LS_EQ(x, '^'),
                                                                   CKN_LS_EQ(x, '`'))), j);
            c->sep |= CKN_LS_BITS(_mm_or_si128(
                _mm_or_si128(both, _mm_or_si128(under, apos)),
                _mm_or_si128(_mm_or_si128(CKN_LS_EQ(x, ' '), CKN_LS_EQ(x, '/')),
                             CKN_LS_EQ(x, ','))), j);
            c->apos |= CKN_LS_BITS(apos, j);
            c->dquote |= CKN_LS_BITS(CKN_LS_EQ(x, '"'), j);
            c->kept |= CKN_LS_BITS(_mm_or_si128(CKN_LS_EQ(x, ']'), CKN_LS_IN(x, 28, 31)), j);
            c->angle |= CKN_LS_BITS(CKN_LS_EQ(x, '<'), j);
            c->under |= CKN_LS_BITS(under, j);
        }
    }
    #define CKN_LS_HAVE_SSE2 1
    #else
    static void ckn_ls_classes_sse2(const uint8_t* d, uint8_t* out, ckn_ls_classes* c) {
        ckn_ls_classes_portable(d, 64, out, c);
    }
    #define CKN_LS_HAVE_SSE2 0
    #endif
    /* The classes of the block of d[0:n] (lower-cased into out) that starts at k. */
    static void ckn_ls_block_classes(const uint8_t* d, int64_t n, int64_t k, uint8_t* out,
                                     int simd, ckn_ls_classes* c) {
        int64_t len = n - k < 64 ? n - k : 64;
        uint8_t pad[64];
        if (!simd) {
            ckn_ls_classes_portable(d + k, len, out + k, c);
        } else if (len == 64) {
            ckn_ls_classes_sse2(d + k, out + k, c);
        } else {  /* zero bytes are in no class */
            memset(pad, 0, 64);
            memcpy(pad, d + k, (size_t)len);
            ckn_ls_classes_sse2(pad, pad, c);
            memcpy(out + k, pad, (size_t)len);
        }
    }
    /* out[0:n] = d[0:n] lower-cased (every byte < 128; out may be d), and its facts in *f. The
       neighbours of a block's first and last byte come from the blocks around it (none before
       byte 0 or after byte n - 1). O(n); with simd (SSE2), 16 bytes per step. */
    static void ckn_ls_view_facts(const uint8_t* d, int64_t n, uint8_t* out, int simd,
                                  ckn_ls_facts* f) {
        ckn_ls_classes cur, next;
        uint64_t before_letter = 0, before_sep = 0, lp, ln, sp, sn;
        int64_t k;
        memset(f, 0, sizeof *f);
        if (n <= 0) return;
        simd = simd && CKN_LS_HAVE_SSE2;
        ckn_ls_block_classes(d, n, 0, out, simd, &cur);
        for (k = 0; k < n; k += 64) {
            if (k + 64 < n) ckn_ls_block_classes(d, n, k + 64, out, simd, &next);
            else memset(&next, 0, sizeof next);
            lp = (cur.letter << 1) | before_letter;
            ln = (cur.letter >> 1) | (next.letter << 63);
            sp = (cur.sep << 1) | before_sep;
            sn = (cur.sep >> 1) | (next.sep << 63);
            f->flags |= ((cur.leet & (lp | ln)) ? CKN_LS_LEET : 0)
                        | ((cur.intra & lp & ln) ? CKN_LS_INTRA : 0)
                        | (cur.kept ? CKN_LS_KEPT : 0) | (cur.angle ? CKN_LS_ANGLE : 0)
                        | (cur.under ? CKN_LS_UNDERSCORE : 0) | (cur.leet ? CKN_LS_DIGIT : 0);
            f->singles += ckn_ls_popcount(cur.letter & sp & sn);
            f->apostrophes += ckn_ls_popcount(cur.apos);
            f->double_quotes += ckn_ls_popcount(cur.dquote);
            before_letter = cur.letter >> 63;
            before_sep = cur.sep >> 63;
            cur = next;
        }
    }
    """
    ctypedef struct ckn_ls_facts:
        int64_t apostrophes
        int64_t double_quotes
        int64_t singles
        unsigned flags
    enum:
        CKN_LS_KEPT
        CKN_LS_ANGLE
        CKN_LS_UNDERSCORE
        CKN_LS_LEET
        CKN_LS_INTRA
        CKN_LS_DIGIT
    void ckn_ls_view_facts(const uint8_t* d, int64_t n, uint8_t* out, int simd,
                           ckn_ls_facts* f) noexcept nogil


ckn_ls_init_masks()

import os as _os
import sys as _sys

from ckn.errors import CknTypeError

# Set once at import (CKN_NO_SIMD=1 in the environment forces the portable path, for tests).
cdef bint _USE_AVX2 = ckn_ls_have_avx2() != 0 and _os.environ.get("CKN_NO_SIMD") != "1"
SIMD = "avx2" if _USE_AVX2 else "portable"
# The views' facts (ckn_ls_view_facts) take SSE2, which every x86-64 CPU has, unless CKN_NO_SIMD=1.
cdef bint _SIMD_FACTS = _os.environ.get("CKN_NO_SIMD") != "1"

cdef enum:
    _HASH_READ = 24  # ckn_ls_hash may read this many bytes from the start of a word
    _FOLD_MAX = 7    # bytes of one code point's fold at most (ViewChecks' fold table)
    _NO_FOLD = 0xFF  # the length byte of a code point with no fold in the table


ctypedef struct _Checks:
    const RuleBitFormulas* formulas  # the rules' literal formulas per rule bit
    const DirectiveTables* model     # the directive model's weights, or NULL
    _Mask model_bit                  # the rule bit the model's anchor words set
    _Mask reads                      # the bits that are worth a look at the views
    const uint8_t* fold_pages        # 256 bytes: 1 + the page of each block of 256 code points
                                     # in ``fold`` (0: no code point of the block folds), or NULL
    const uint64_t* fold             # 256 entries per page: a code point's fold (_folded)


ctypedef struct _FoldScratch:
    uint8_t* data                    # a folded segment, then its work area (_folded_mask)
    index_t size                     # bytes at ``data``


ctypedef struct _Plan:
    const uint8_t* table        # 256 bytes: the word table of ``_ascii_plan`` (0 from 128 on)
    const uint8_t* special      # 256 flags: not a plain character (a word character of both
                                # views, in no set or marker); every code point >= 128 is one
    const uint8_t* lut          # 176 bytes: the shuffle tables of ckn_ls_translate_avx2
    const uint8_t* dropped      # 128 flags: in-word punctuation left out of the second view
    const uint8_t* simple       # 256 flags: a break in both views, in no set or marker, not "<"
                                # or "[" (a plain break; 0 from 128 on)
    const uint8_t* flags        # 128 bytes: _MARKER_START, _SENTENCE_MARK
    const uint8_t* pairs        # 128 * 128 bytes: index into pair_masks of a marker pair
    const uint64_t* pair_masks  # (lo, hi) pairs
    const uint64_t* slots       # _SLOT words each (_hash_bits), never full
    uint64_t slot_mask
    const uint64_t* filter      # _FILTER_WORDS words: a bit per table word's quick key
    index_t max_len             # longest table word (bytes)
    _Mask substring_mask        # rule bits a substring of a spaced-out segment may set
    const uint64_t* char_groups  # 128 group masks (lo, hi), one per ASCII character
    const uint64_t* needs       # _NEED words each (_required), in rule-bit order
    const index_t* first_need   # 127 entries: rule bit b's ways are the needs from
                                # first_need[b] to first_need[b + 1]
    const _Checks* checks       # the checks of a segment's views (_checked), or NULL


cdef enum:
    _SLOT = 5  # words per slot of the word table
    _NEED = 5  # words per way to meet a rule's requirements
    _FILTER_WORDS = 1024  # 65,536-bit filter of the table words' quick keys (8 KiB: stays in L1)


cdef inline bint _maybe_in_table(const uint64_t* filter, const uint8_t* word,
                                 index_t length) noexcept nogil:
    """False when no table word has the quick key of the ``length`` bytes at ``word``."""
    cdef uint32_t b = ckn_ls_quick_key(word, length)
    return (filter[b >> 6] >> (b & 63)) & 1


cdef inline uint64_t _table_hash(const _Plan* plan, const uint8_t* word,
                                 index_t length) noexcept nogil:
    """``ckn_ls_hash`` of the ``length`` >= 1 bytes at ``word`` (it reads past them), or 0 when
    no table word can be them: longer than every table word, or a quick key no table word has
    (most words of a text)."""
    if length > plan.max_len or not _maybe_in_table(plan.filter, word, length):
        return 0
    return ckn_ls_hash(word, length)


cdef inline void _hash_bits(const _Plan* plan, uint64_t h, _Mask* mask,
                            _Mask* groups) noexcept nogil:
    """OR the rule bits of the table word with hash ``h`` into ``mask`` and its group bits into
    ``groups`` (nothing when no table word has that hash, or ``h`` is 0). Slots are (hash, rule
    bits lo, rule bits hi, group bits lo, group bits hi)."""
    if h == 0:
        return
    cdef const uint64_t* slots = plan.slots
    cdef uint64_t slot_mask = plan.slot_mask
    cdef uint64_t i = h & slot_mask
    while slots[_SLOT * i] != 0:
        if slots[_SLOT * i] == h:
            mask.lo |= slots[_SLOT * i + 1]
            mask.hi |= slots[_SLOT * i + 2]
            groups.lo |= slots[_SLOT * i + 3]
            groups.hi |= slots[_SLOT * i + 4]
            return
        i = (i + 1) & slot_mask


cdef inline void _end_word(const _Plan* plan, uint64_t h, bint* first, _Mask* mask,
                           _Mask* groups, _Mask* first_groups) noexcept nogil:
    """A word view's word (``_table_hash`` ``h``) has ended: its rule bits into ``mask``, its
    group bits into ``groups``, and into ``first_groups`` when it is the view's first word
    (``first``, cleared here)."""
    cdef _Mask g
    g.lo = 0
    g.hi = 0
    _hash_bits(plan, h, mask, &g)
    groups.lo |= g.lo
    groups.hi |= g.hi
    if first[0]:
        first_groups.lo |= g.lo
        first_groups.hi |= g.hi
        first[0] = False


cdef enum:
    _WORD2 = 256  # bytes kept of the second view's current word (longest table word: max_len)


cdef inline index_t _append(uint8_t* word, index_t length, const uint8_t* src,
                            index_t k) noexcept nogil:
    """Append ``k`` bytes to the second view's word of ``length`` bytes (keeping its first
    ``_WORD2``); its new length."""
    cdef index_t room = _WORD2 - length
    if room > 0:
        memcpy(word + length, src, k if k < room else room)
    return length + k


cdef inline bint _covers(_Mask have, const uint64_t* need) noexcept nogil:
    """Every bit of the 128-bit ``need`` (lo, hi) is in ``have``."""
    return have.lo & need[0] == need[0] and have.hi & need[1] == need[1]


cdef inline _Mask _required(const _Plan* plan, _Mask mask, _Mask groups,
                            _Mask first_groups) noexcept nogil:
    """``mask`` without the rule bits none of whose rules has every group it needs (among all
    words, and among the first word of each word view). ``plan.needs`` holds (rule bit,
    groups lo, groups hi, first-word groups lo, first-word groups hi) per way; only the ways of
    the bits set in ``mask`` are read."""
    cdef _Mask keep
    cdef uint64_t rest, bit
    cdef const uint64_t* need
    cdef index_t k, b
    cdef int half
    keep.lo = 0
    keep.hi = 0
    for half in range(2):
        rest = mask.lo if half == 0 else mask.hi
        while rest:
            bit = rest & (~rest + 1)
            rest ^= bit
            b = 64 * half + ckn_ls_ctz(bit)
            for k in range(plan.first_need[b], plan.first_need[b + 1]):
                need = plan.needs + _NEED * k
                if _covers(groups, need + 1) and _covers(first_groups, need + 3):
                    if half == 0:
                        keep.lo |= bit
                    else:
                        keep.hi |= bit
                    break
    mask.lo &= keep.lo
    mask.hi &= keep.hi
    return mask


cdef inline bint _is_space(uint8_t c) noexcept nogil:
    # bytes.split() whitespace (a newline never occurs inside a line)
    return c == 32 or c == 9 or c == 13 or c == 11 or c == 12


cdef inline bint _is_lower(uint8_t c) noexcept nogil:
    return 97 <= c <= 122


# The separators of _spaced_out, per byte: sanitizer._SEP on ASCII, [ .\-_*/|~+,], for a view;
# the space alone on the word table's bytes.
cdef uint8_t _VIEW_SEPARATORS[256]
cdef uint8_t _TABLE_SEPARATORS[256]
memset(_VIEW_SEPARATORS, 0, 256)
memset(_TABLE_SEPARATORS, 0, 256)
for _c in " .-_*/|~+,":
    _VIEW_SEPARATORS[ord(_c)] = 1
_TABLE_SEPARATORS[32] = 1


cdef inline bint _is_alnum(uint8_t c) noexcept nogil:
    return 97 <= c <= 122 or 48 <= c <= 57  # [^\W_] on lower-cased ASCII


cdef bint _spaced_out(const uint8_t* t, index_t n, bint view=False) noexcept nogil:
    """``re.search(rb" [a-z] {1,3}[a-z] {1,3}[a-z] {1,3}[a-z](?![a-z])", t[:n])`` on the word
    table's bytes; with ``view``, ``sanitizer._SPACED_HINT.search`` on a lower-cased ASCII
    view instead (separators ``_VIEW_SEPARATORS``, and no letter or digit after the fourth
    letter). Each separator run is followed by a letter, so ``{1,3}`` has one way to match and
    no backtracking is needed. A run starts at a letter with a separator on each side: one
    test of three table bytes per position finds them."""
    cdef const uint8_t* sep = &_TABLE_SEPARATORS[0]
    if view:
        sep = &_VIEW_SEPARATORS[0]
    cdef index_t p, q, run
    cdef int letters
    for p in range(n - 2):
        if not (sep[t[p]] and _is_lower(t[p + 1]) and sep[t[p + 2]]):
            continue
        q = p + 1
        letters = 1
        while letters < _MIN_SPACED:
            run = 0
            while q + 1 + run < n and sep[t[q + 1 + run]]:
                run += 1
            if run < 1 or run > 3 or q + 1 + run >= n or not _is_lower(t[q + 1 + run]):
                break
            q = q + 1 + run
            letters += 1
        if letters == _MIN_SPACED and (q + 1 >= n or not (_is_alnum(t[q + 1]) if view
                                                           else _is_lower(t[q + 1]))):
            return True
    return False


ctypedef fused ucs_t:  # PEP 393 storage: kind 1, 2 or 4
    uint8_t
    uint16_t
    uint32_t


cdef inline bint _sentence_end(const ucs_t* d, index_t p, index_t end) noexcept nogil:
    """``re.match(r"[.!?](?=[ \\t\\r\\f\\v])|[。！？]", line, p)`` (``sanitizer._SENTENCE_END``)."""
    cdef uint32_t c = d[p]
    if c == 0x3002 or c == 0xFF01 or c == 0xFF1F:
        return True
    if c != 46 and c != 33 and c != 63:
        return False
    if p + 1 >= end:
        return False
    c = d[p + 1]
    return c == 32 or c == 9 or c == 13 or c == 12 or c == 11


cdef inline index_t _after_sentence_end(const ucs_t* d, index_t p, index_t end) noexcept nogil:
    """The position after the first sentence end at or after ``p`` (``end`` when none)."""
    while p < end:
        if _sentence_end(d, p, end):
            return p + 1
        p += 1
    return end


cdef void _translate_line(const ucs_t* d, index_t n, const _Plan* plan, uint8_t* work,
                         uint64_t* special, uint64_t* breaks) noexcept nogil:
    """For the line of ``n`` code points at ``d``: ``work[k]`` = the word-table byte of ``d[k]``
    (0 for a code point >= 128), bit k of ``special`` set when ``d[k]`` is not a plain
    character and bit k of ``breaks`` when it is a plain break (``plan.simple``), for k < n,
    and bit n of ``special`` set (the end). No branch per character: O(n); whole 64-byte
    blocks of one-byte text take ``ckn_ls_translate_avx2`` when the CPU has AVX2."""
    cdef const uint8_t* table = plan.table
    cdef const uint8_t* flags = plan.special
    cdef const uint8_t* simple = plan.simple
    cdef index_t w, k, base, full = n >> 6, done = 0
    cdef uint64_t acc, brk
    cdef uint32_t c
    if ucs_t is uint8_t:
        if _USE_AVX2:
            done = ckn_ls_translate_avx2(d, n, plan.lut, work, special, breaks) >> 6
    for w in range(done, full):
        base = w << 6
        acc = brk = 0
        for k in range(64):
            c = d[base + k]
            if ucs_t is not uint8_t:
                c = c if c < 128 else 128
            work[base + k] = table[c]
            acc |= <uint64_t>flags[c] << k
            brk |= <uint64_t>simple[c] << k
        special[w] = acc
        breaks[w] = brk
    base = full << 6
    acc = brk = 0
    for k in range(n - base):
        c = d[base + k]
        if ucs_t is not uint8_t:
            c = c if c < 128 else 128
        work[base + k] = table[c]
        acc |= <uint64_t>flags[c] << k
        brk |= <uint64_t>simple[c] << k
    special[full] = acc | (1ULL << (n - base))
    breaks[full] = brk


cdef _Mask _span_mask(
    const ucs_t* d, index_t line, index_t start, index_t end, bint split, const _Plan* plan,
    uint8_t* work, const uint64_t* special, const uint64_t* breaks, index_t* stop,
) noexcept nogil:
    """Mask of the segment that starts at ``start``: the rule bits of its anchor words and
    markers whose requirements are met, plus ``SPACED_OUT``; or ``NON_ASCII``; or 0. The segment
    ends at ``end`` (the end of the line that starts at ``line``), or with ``split`` after its
    first sentence end; its end is written to ``stop``. ``work``, ``special`` and ``breaks``:
    the line's table bytes, special-character bits and plain-break bits (``_translate_line``,
    offsets from ``line``).

    Only special characters are visited, found by the lowest set bit of ``special``: the plain
    runs between them need no work, since a word of the first view (punctuation as a break) is
    a run of ``work``, hashed where it ends. The second view (in-word punctuation dropped)
    differs from the first only from an in-word punctuation mark to the end of its word, and is
    then copied into a buffer."""
    cdef index_t s = start - line, e = end - line, p, ws1 = s, prev = s, len1, len2 = 0
    cdef index_t singles = 0, w
    cdef uint64_t pending, h
    cdef _Mask mask
    cdef _Mask groups, first_groups
    groups.lo = groups.hi = first_groups.lo = first_groups.hi = 0
    # the second view's current word while the views differ (``same`` False); _HASH_READ bytes
    # of slack for ckn_ls_hash
    cdef uint8_t word2[_WORD2 + _HASH_READ]
    cdef bint first1 = True, first2 = False, same = True, template = False
    cdef uint32_t c, c2
    cdef uint8_t t, pair
    cdef const uint8_t* dropped = plan.dropped
    cdef const uint8_t* flags = plan.flags
    cdef const uint64_t* char_groups = plan.char_groups
    mask.lo = 0
    mask.hi = 0
    stop[0] = end
    w = s >> 6
    pending = special[w] & (~0ULL << (s & 63))
    while True:
        while pending == 0:  # the bit of the line's end stops this
            w += 1
            pending = special[w]
        p = (w << 6) + ckn_ls_ctz(pending)
        if p >= e:
            break
        if same and breaks[w] & pending & (~pending + 1):  # usually: a space between words
            pending &= pending - 1
            len1 = p - ws1
            if len1:
                singles += len1 == 1 and _is_lower(work[p - 1])
                h = _table_hash(plan, work + ws1, len1)
                if h:
                    _end_word(plan, h, &first1, &mask, &groups, &first_groups)
                else:  # not a table word: no bits
                    first1 = False
            ws1 = prev = p + 1
            continue
        pending &= pending - 1
        c = d[line + p]
        if (same and split and c < 128 and flags[c] & _SENTENCE_MARK
                and _sentence_end(d, line + p, end)):
            # "word." and the like before a space: the word ends here in both views (the mark
            # is a break, or dropped with a space after it) and no marker pair starts at the
            # mark (markers hold no space): the general steps below, without their copies
            groups.lo |= char_groups[2 * c]
            groups.hi |= char_groups[2 * c + 1]
            len1 = p - ws1
            if len1:
                singles += len1 == 1 and _is_lower(work[p - 1])
                _end_word(plan, _table_hash(plan, work + ws1, len1), &first1, &mask, &groups,
                          &first_groups)
            ws1 = p + 1
            stop[0] = line + p + 1
            e = p + 1
            break
        if not same:  # the plain run before this character goes on the second view's word
            len2 = _append(word2, len2, work + prev, p - prev)
        prev = p + 1
        if c >= 128:
            mask.lo = 0
            mask.hi = _NON_ASCII_HI
            if split:
                stop[0] = _after_sentence_end(d, line + p, end)
            return mask
        template |= c == 60 or c == 91  # "<" or "[": see the end
        if flags[c] & _MARKER_START and line + p + 1 < end:
            c2 = d[line + p + 1]
            if c2 < 128:
                pair = plan.pairs[(c << 7) | c2]
                mask.lo |= plan.pair_masks[2 * pair]
                mask.hi |= plan.pair_masks[2 * pair + 1]
        groups.lo |= char_groups[2 * c]
        groups.hi |= char_groups[2 * c + 1]
        t = work[p]
        if dropped[c] and same:  # the second view keeps the current word going
            len2 = _append(word2, 0, work + ws1, p - ws1)
            first2 = first1
            same = False
        if _is_space(t):  # the first view's word ends (else this character is part of it)
            len1 = p - ws1
            singles += len1 == 1 and _is_lower(work[p - 1])
            if len1:
                _end_word(plan, _table_hash(plan, work + ws1, len1), &first1, &mask, &groups,
                          &first_groups)
            ws1 = p + 1
        if not dropped[c] and not same:
            if _is_space(t):  # both views are between words again, with the same words ended
                if len2:
                    _end_word(plan, _table_hash(plan, word2, len2), &first2, &mask, &groups,
                              &first_groups)
                same = True
            else:
                len2 = _append(word2, len2, &t, 1)
        if split and flags[c] & _SENTENCE_MARK and _sentence_end(d, line + p, end):
            stop[0] = line + p + 1
            e = p + 1
            break
    if e > ws1:
        _end_word(plan, _table_hash(plan, work + ws1, e - ws1), &first1, &mask, &groups,
                  &first_groups)
    if not same:
        len2 = _append(word2, len2, work + prev, e - prev)
        if len2:
            _end_word(plan, _table_hash(plan, word2, len2), &first2, &mask, &groups,
                      &first_groups)
    # A spaced-out run has at least three single-letter words (the fourth letter may end a word
    # such as "e2"); most segments have fewer, and the search is skipped.
    if singles >= 3 and _spaced_out(work + s, e - s):
        _substring_bits(plan, work + s, e - s, &mask, &groups)
        mask = _required(plan, mask, groups, groups)
        if mask.lo or mask.hi:
            mask.hi |= _SPACED_OUT_HI
        return mask
    # Python's views blank chat-template tokens named in prose (``sanitizer._without_mentions``),
    # so after a "<" or "[" any word may come first in a view
    return _required(plan, mask, groups, groups if template else first_groups)


cdef void _substring_bits(const _Plan* plan, uint8_t* work, index_t j, _Mask* mask,
                          _Mask* groups) noexcept nogil:
    """For a segment with spaced-out letters (``work``: its ``j`` translated bytes; compacted
    here): OR into ``mask`` the rule bits of every table word that occurs as a substring of its
    non-space bytes, except the bits outside ``plan.substring_mask``, and their group bits into
    ``groups``.

    Joining spaced letters, dropping in-word punctuation and reading leetspeak only remove
    characters between letters, so every word of a de-obfuscated view is such a substring: the
    rules this selects include every rule that can match (any of them may also be the first
    word, so the group bits count as first-word groups too). Cost: about ``j * max_len``
    hashes, for the few segments with spaced-out letters; ``ckn_ls_hash`` reads up to
    ``_HASH_READ`` bytes past ``work[j - 1]``."""
    cdef index_t n = 0, a, b, stop
    cdef _Mask found
    found.lo = 0
    found.hi = 0
    for a in range(j):
        if not _is_space(work[a]):
            work[n] = work[a]
            n += 1
    for a in range(n):
        stop = min(n, a + plan.max_len)
        for b in range(a, stop):
            _hash_bits(plan, _table_hash(plan, work + a, b - a + 1), &found, groups)
    mask.lo |= found.lo & plan.substring_mask.lo
    mask.hi |= found.hi & plan.substring_mask.hi


cdef inline index_t _emit(index_t* out, index_t cap, index_t count, index_t start, index_t end,
                          index_t seg, index_t seg_end, _Mask mask) noexcept nogil:
    """Record a candidate segment (when ``mask`` is set and there is room); the new count."""
    cdef bint keep = mask.lo != 0 or mask.hi != 0
    if keep and count < cap:
        out[6 * count] = start
        out[6 * count + 1] = end
        out[6 * count + 2] = seg
        out[6 * count + 3] = seg_end
        out[6 * count + 4] = <index_t>mask.lo
        out[6 * count + 5] = <index_t>mask.hi
    return count + keep


cdef inline index_t _special_offset(index_t n) noexcept nogil:
    """Where the special-character bits start in a work area for ``n`` code points: after ``n``
    table bytes and ``_HASH_READ`` bytes of slack, 8-byte aligned."""
    return (n + _HASH_READ + 15) & ~(<index_t>7)


cdef inline index_t _breaks_offset(index_t n) noexcept nogil:
    """Where the plain-break bits start in a work area for ``n`` code points."""
    return _special_offset(n) + 8 * ((n >> 6) + 2)


cdef inline index_t _views_offset(index_t n) noexcept nogil:
    """Where the three view buffers of ``_checked`` start in a work area for ``n`` code points."""
    return _breaks_offset(n) + 8 * ((n >> 6) + 2)


cdef inline index_t _ranks_offset(index_t n) noexcept nogil:
    """Where the ranks scratch of the model's weight sum starts in a work area."""
    return _views_offset(n) + 3 * ((n + 8) & ~(<index_t>7))


cdef inline index_t _work_size(index_t n, const _Plan* plan) noexcept nogil:
    """Bytes of the work area ``linescan_candidates`` needs for a text of ``n`` code points
    (the view checks' buffers only with ``plan.checks``)."""
    if plan.checks == NULL:
        return _views_offset(n)
    return _ranks_offset(n) + 4 * directive_ranks_room(2 * n)


cdef uint64_t* _new_found(const _Plan* plan) except NULL:
    """The found set (``found_size`` words, made ready: ``found_set_ready``) the view checks of
    ``plan.checks`` use; the caller frees it."""
    cdef uint64_t* found = <uint64_t*>malloc(8 * plan.checks.formulas.found_size)
    if found == NULL:
        raise MemoryError()
    found_set_ready(plan.checks.formulas, found)
    return found


# The checks of a plain-ASCII segment (``_checked``) read the views the sanitizer would build for
# it (``sanitizer.normalized_views``): the lower-cased segment, and its de-obfuscated form
# (``sanitizer._deobfuscate``), rebuilt here byte for byte. A letter (``[^\W\d_]``) of a
# lower-cased ASCII view is ``_is_lower``.
cdef inline bint _is_leet(uint8_t c) noexcept nogil:
    return 48 <= c <= 57 or c == 64 or c == 36  # [0-9@$]


# Per byte: sanitizer._INTRA_PUNCT's class on ASCII, [.\-*|~^+`]; and the byte with leetspeak
# read as letters, str.maketrans("0134578@$", "oieastbas").
cdef uint8_t _INTRA_PUNCT[256]
cdef uint8_t _LEET_LETTERS[256]
memset(_INTRA_PUNCT, 0, 256)
for _c in ".-*|~^+`":
    _INTRA_PUNCT[ord(_c)] = 1
for _c in range(256):
    _LEET_LETTERS[_c] = _c
for _c, _letter in zip("0134578@$", "oieastbas"):
    _LEET_LETTERS[ord(_c)] = ord(_letter)


cdef enum:
    _UNCHANGED = -2  # _view_deobfuscated: the view de-obfuscates to itself


cdef index_t _view_deobfuscated(const uint8_t* v, index_t n, uint8_t* out,
                                const ckn_ls_facts* facts) noexcept nogil:
    """``_deobfuscated(v, n, out)``, or ``_UNCHANGED`` (``out`` not written) when that would be
    ``v`` itself because ``facts`` (``ckn_ls_view_facts`` of ``v``, possibly read before the
    apostrophes between letters became spaces: that changes no flag, and ``singles``, which
    counts every apostrophe as a separator, is never below the count after it) show no leet
    character next to a letter, no in-word punctuation between two letters and no underscore,
    and there are no spaced-out letters: those need three single letters between separators,
    and ``_spaced_out`` is asked only then."""
    if facts.flags & (CKN_LS_LEET | CKN_LS_INTRA | CKN_LS_UNDERSCORE):
        return _deobfuscated(v, n, out)
    if facts.singles >= 3 and _spaced_out(v, n, True):
        return -1
    return _UNCHANGED


cdef index_t _deobfuscated(const uint8_t* v, index_t n, uint8_t* out,
                          int leet_mode=-1) noexcept nogil:
    """``sanitizer._deobfuscate`` of the lower-cased ASCII view ``v[:n]``, written to ``out``
    (``n`` bytes of room); its length, or -1 when the view has spaced-out letters
    (``_SPACED_HINT``: ``_spaced_out``), whose joining is left to Python. The steps, as there:
    leetspeak read as letters in the whole view when a leet character touches a letter
    (``leet_mode`` -1; 0: never, 1: always); punctuation inside a word dropped
    (``_INTRA_PUNCT``); an underscore dropped between a run of 1 to 4 letters and one of 1 to 5
    (``_SHORT_UNDERSCORE``, matched left to right). O(n)."""
    cdef index_t i, m, w, p, r, q, s
    cdef bint leet = leet_mode == 1, underscore = False, dropped
    cdef uint8_t c
    for i in range(n if leet_mode < 0 else 0):
        if _is_leet(v[i]) and (i > 0 and _is_lower(v[i - 1]) or i + 1 < n and _is_lower(v[i + 1])):
            leet = True
            break
    if leet:
        for i in range(n):
            out[i] = _LEET_LETTERS[v[i]]
    elif n > 0:
        memcpy(out, v, n)
    if _spaced_out(out, n, True):
        return -1
    w = 0
    for i in range(n):  # a removal only moves bytes left of i, so out[i - 1] is still the original
        c = out[i]
        if not (_INTRA_PUNCT[c] and i > 0 and _is_lower(out[i - 1]) and i + 1 < n
                and _is_lower(out[i + 1])):
            out[w] = c
            w += 1
        underscore |= c == 95
    m = w
    if not underscore:
        return m
    w = 0
    p = 0
    while p < m:
        r = 0  # the letters of a run starting at p (the lookbehind: no letter or digit before)
        if p == 0 or not _is_alnum(out[p - 1]):
            while p + r < m and _is_lower(out[p + r]):
                r += 1
        if r == 0:
            out[w] = out[p]
            w += 1
            p += 1
            continue
        dropped = False
        if r <= 4 and p + r < m and out[p + r] == 95:
            q = p + r + 1
            s = 0
            while q + s < m and s <= 5 and _is_lower(out[q + s]):
                s += 1
            dropped = 1 <= s <= 5 and (q + s >= m or not _is_alnum(out[q + s]))
        for i in range(r):  # w <= p: nothing from p on was written yet
            out[w + i] = out[p + i]
        w += r
        p += r + dropped  # a dropped underscore is skipped; matching goes on after it
    return w


def deobfuscated_view(str view not None):
    """``sanitizer._deobfuscate_regex(view)`` where C can tell, else None (then Python decides):
    for an ASCII ``view`` with no upper-case letter and no spaced-out letters, the de-obfuscated
    view (``_deobfuscated``: the same string; ``view`` itself when nothing changes); for any
    other view, ``view`` itself when none of the regexes can change it
    (``_deobfuscation_may_change``). O(n)."""
    if not PyUnicode_IS_ASCII(view):
        return None if _deobfuscation_may_change(view) else view
    cdef const uint8_t* d = <const uint8_t*>PyUnicode_DATA(view)
    cdef index_t n = PyUnicode_GET_LENGTH(view), i, m
    for i in range(n):
        if 65 <= d[i] <= 90:
            return None
    cdef bytearray out = bytearray(n)
    cdef ckn_ls_facts facts
    ckn_ls_view_facts(d, n, <uint8_t*><char*>out, _SIMD_FACTS, &facts)
    m = _view_deobfuscated(d, n, <uint8_t*><char*>out, &facts)
    if m == _UNCHANGED or m == n and memcmp(d, <const uint8_t*><char*>out, n) == 0:
        return view
    if m < 0:
        return None
    return out[:m].decode("ascii")


cdef inline bint _re_letter(uint32_t c) noexcept nogil:
    """``[^\\W\\d_]`` of Python's ``re`` on a str: a word character (sre: Py_UNICODE_ISALNUM,
    or the underscore) that is neither a decimal digit (Py_UNICODE_ISDECIMAL) nor ``_``."""
    if c < 128:
        return <uint32_t>((c | 32) - 97) < 26
    return Py_UNICODE_ISALNUM(c) and not Py_UNICODE_ISDECIMAL(c)


cdef inline bint _spaced_sep(uint32_t c) noexcept nogil:
    """``sanitizer._SEP``: `` .-_*/|·•~+,``."""
    return (c == 32 or c == 46 or c == 45 or c == 95 or c == 42 or c == 47 or c == 124
            or c == 0xB7 or c == 0x2022 or c == 126 or c == 43 or c == 44)


cdef inline bint _in_word_mark(uint32_t c) noexcept nogil:
    """The marks ``sanitizer._INTRA_PUNCT`` drops between two letters: ``.-*·•|~^+```."""
    return (c == 46 or c == 45 or c == 42 or c == 0xB7 or c == 0x2022 or c == 124 or c == 126
            or c == 94 or c == 43 or c == 96)


cdef bint _spaced_from(int kind, const void* data, Py_ssize_t n, Py_ssize_t i) noexcept:
    """Whether ``sanitizer._SPACED_HINT`` matches from the ``_SEP`` character at ``i``: four
    letters, the first right after it and the others each after 1 to 3 ``_SEP`` characters
    (no letter is one: a run of them has one length), then no letter or digit."""
    cdef Py_ssize_t j = i + 1, run, letter
    for letter in range(4):
        if j >= n or not _re_letter(PyUnicode_READ(kind, data, j)):
            return False
        j += 1
        if letter == 3:
            break
        run = 0
        while j < n and _spaced_sep(PyUnicode_READ(kind, data, j)):
            run += 1
            j += 1
        if run == 0 or run > 3:
            return False
    return j >= n or not Py_UNICODE_ISALNUM(PyUnicode_READ(kind, data, j))


cdef bint _deobfuscation_may_change(str view) noexcept:
    """False when ``sanitizer._deobfuscate_regex`` leaves ``view`` as it is for sure: no ``_``
    (``_SHORT_UNDERSCORE``), and none of ``_LEET_HINT`` (``[0-9@$]`` next to an ASCII
    lower-case letter), ``_INTRA_PUNCT`` (an in-word mark between two letters) and
    ``_SPACED_HINT`` (``_spaced_from``) matches. O(n)."""
    cdef int kind = PyUnicode_KIND(view)
    cdef const void* data = PyUnicode_DATA(view)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(view), i
    cdef uint32_t c, before = 0, after = PyUnicode_READ(kind, data, 0) if n else 0
    for i in range(n):
        c = after  # each code point is read once
        after = PyUnicode_READ(kind, data, i + 1) if i + 1 < n else 0
        if c == 95:
            return True
        if (48 <= c <= 57 or c == 64 or c == 36) and (97 <= before <= 122 or 97 <= after <= 122):
            return True
        if _in_word_mark(c) and i > 0 and i + 1 < n and _re_letter(before) and _re_letter(after):
            return True
        if _spaced_sep(c) and i + 1 < n and _re_letter(after) and _spaced_from(kind, data, n, i):
            return True
        before = c
    return False


def mixed_script(str view not None):
    """``sanitizer._MIXED_SCRIPT.search(view) is not None``: an ASCII lower-case letter next to
    a Greek or Cyrillic one (U+0370..U+052F). O(n)."""
    cdef int kind = PyUnicode_KIND(view)
    cdef const void* data = PyUnicode_DATA(view)
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(view), i
    cdef uint32_t c
    cdef bint latin, greek_cyrillic, was_latin = False, was_greek_cyrillic = False
    if kind == 1:  # no Greek or Cyrillic in Latin-1
        return False
    for i in range(n):
        c = PyUnicode_READ(kind, data, i)
        latin = 97 <= c <= 122
        greek_cyrillic = 0x370 <= c <= 0x52F
        if latin and was_greek_cyrillic or greek_cyrillic and was_latin:
            return True
        was_latin = latin
        was_greek_cyrillic = greek_cyrillic
    return False


def has_tag_characters(str text not None):
    """``sanitizer._TAGS.search(text) is not None``: ``text`` holds a Tag character
    (U+E0000..U+E007F). Only a str of the 4-byte kind can. O(n)."""
    cdef const uint32_t* d
    cdef Py_ssize_t i
    if PyUnicode_KIND(text) != 4:
        return False
    d = <const uint32_t*>PyUnicode_DATA(text)
    for i in range(PyUnicode_GET_LENGTH(text)):
        if 0xE0000 <= d[i] <= 0xE007F:
            return True
    return False


cdef index_t _mapped(const ucs_t* d, index_t n, const uint16_t* table, index_t size,
                     uint32_t* out) noexcept nogil:
    """Copy ``d[:n]`` to ``out`` with each code point c below ``size`` whose ``table[c]`` is
    not 0 replaced by ``table[c]``, unless ``out`` is NULL; return the first replaced place,
    or n when none is. O(n)."""
    cdef index_t i, first = n
    cdef uint32_t c
    for i in range(n):
        c = d[i]
        if c < <uint32_t>size and table[c] != 0:
            if first == n:
                first = i
                if out == NULL:
                    return first
            c = table[c]
        if out != NULL:
            out[i] = c
    return first


def mapped_code_points(str text not None, const uint16_t[::1] table not None):
    """``text.translate(m)`` for a one-to-one map ``m`` of code points to code points below
    65,536, given as ``table`` (``table[c]``: what c becomes, 0 for unchanged; code points past
    its end are unchanged): ``text`` itself when nothing changes. Where ``str.translate`` looks
    each code point of a non-ASCII string up in a dict (about 80 ns each), this reads a table.
    O(len(text))."""
    cdef index_t n = PyUnicode_GET_LENGTH(text), size = table.shape[0], first
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    if size == 0:
        return text
    first = (_mapped(<const uint8_t*>data, n, &table[0], size, NULL) if kind == 1 else
             _mapped(<const uint16_t*>data, n, &table[0], size, NULL) if kind == 2 else
             _mapped(<const uint32_t*>data, n, &table[0], size, NULL))
    if first == n:
        return text
    cdef uint32_t* out = <uint32_t*>malloc(n * sizeof(uint32_t))
    if out == NULL:
        raise MemoryError()
    try:
        if kind == 1:
            _mapped(<const uint8_t*>data, n, &table[0], size, out)
        elif kind == 2:
            _mapped(<const uint16_t*>data, n, &table[0], size, out)
        else:
            _mapped(<const uint32_t*>data, n, &table[0], size, out)
        return PyUnicode_FromKindAndData(4, out, n)  # (stored in its narrowest kind)
    finally:
        free(out)


cdef void _apostrophes_as_spaces(uint8_t* v, index_t n) noexcept nogil:
    """``sanitizer._APOSTROPHE.sub(" ", ...)`` on the lower-cased ASCII ``v[:n]`` in place: an
    apostrophe between two letters reads as a space (replacing one changes no neighbour's
    letterhood, so left to right is exact)."""
    cdef index_t i
    for i in range(1, n - 1):
        if v[i] == 39 and _is_lower(v[i - 1]) and _is_lower(v[i + 1]):
            v[i] = 32


cdef _Mask _quoted_checked(const RuleBitFormulas* f, uint8_t* v, uint8_t* d0, uint8_t* d1,
                           index_t n, uint64_t* found, _Mask mask,
                           const ckn_ls_facts* facts) noexcept nogil:
    """``_checked``'s rule bits for a segment with two quotes of a kind, lower-cased in
    ``v[:n]``, whose views blank quoted mentions (``sanitizer._without_mentions``: the text
    between two quotes becomes one space; which spans, a regex decides). Outside the blanked
    spans, the views are ``v`` with every apostrophe inside a word read as a space, except the
    quotes of a blanked span, which stay (``like'ignore …'`` reads ``like' '``), de-obfuscated
    with or without leetspeak (which of the two depends on the text that stays). So a literal
    of the views with no apostrophe is found in one of those three strings (``v`` so read and
    its two de-obfuscations), unless it crosses a blanked span's space: then it is " " or holds
    a double quote next to the space. Those literals, and every literal with an apostrophe,
    count as found (``RuleBitFormulas.quoted``). The literals' places in those strings need not
    be in the views' order, so only their presence is checked (no SEQ order). The model's bit
    is left to Python. ``d0``, ``d1``: n bytes each. ``facts``: ``ckn_ls_view_facts`` of ``v``
    (read before its apostrophes became spaces, as ``_view_deobfuscated`` allows): without
    in-word punctuation or an underscore the de-obfuscation without leetspeak is ``v`` itself
    (unless its letters are spaced out), and without any ``[0-9@$]`` the one with leetspeak is
    the same as the one without."""
    cdef index_t m0, m1
    cdef const uint8_t* strings[3]
    cdef Py_ssize_t sizes[3]
    cdef Py_ssize_t count = 1
    cdef const uint8_t* s0 = d0
    _apostrophes_as_spaces(v, n)
    if facts.flags & (CKN_LS_INTRA | CKN_LS_UNDERSCORE):
        m0 = _deobfuscated(v, n, d0, 0)
    elif facts.singles >= 3 and _spaced_out(v, n, True):
        m0 = -1
    else:
        s0, m0 = v, n
    m1 = _deobfuscated(v, n, d1, 1) if facts.flags & CKN_LS_DIGIT else m0
    if m0 < 0 or m1 < 0:
        return mask
    if mask.lo & f.covered[0] or mask.hi & f.covered[1]:
        strings[0] = v
        sizes[0] = n
        if not _same(s0, m0, v, n):  # (most text has nothing to de-obfuscate)
            strings[count] = s0
            sizes[count] = m0
            count += 1
        if facts.flags & CKN_LS_DIGIT and not _same(d1, m1, s0, m0) and not _same(d1, m1, v, n):
            strings[count] = d1
            sizes[count] = m1
            count += 1
        formulas_check(f, strings, sizes, count, f.quoted, False, found, &mask.lo, &mask.hi)
    return mask


cdef inline bint _same(const uint8_t* a, index_t m, const uint8_t* b, index_t n) noexcept nogil:
    return m == n and memcmp(a, b, n) == 0


cdef _Mask _checked(const ucs_t* d, index_t n, const _Checks* checks, uint8_t* views,
                    uint64_t* found, int32_t* ranks, _Mask mask) noexcept nogil:
    """``mask`` after a look at the views of the plain-ASCII segment ``d[:n]`` that the sanitizer
    would build (``sanitizer.normalized_views``): the lower-cased segment and its de-obfuscated
    form (an apostrophe inside a word reads as a space). The rule bits whose rules' literal
    formulas fail over the literals of both views found together (each at its earliest end and
    latest start in either, which keeps every formula that holds on one of them, SEQ order
    included) are dropped, and so is the model's bit when the directive model scores the views
    at or below its threshold (the double ``Model.score`` gives). A
    segment with two quotes of a kind, whose views may blank quoted mentions, goes to
    ``_quoted_checked``. A segment whose base view ``sanitizer._without_mentions`` could change
    otherwise (``]``, ``<|``, ``<<``, ``<`` with ``_``), or one that ``sanitizer._ascii_view``
    sends to the Unicode regexes (FS, GS, RS, US), or one with spaced-out letters keeps its
    mask, as does the model's bit when a view may hold an address
    (``directive_weight_sum``): Python decides them. ``views``: 3 * n bytes;
    ``found``: ``found_size`` words; ``ranks``: ``directive_ranks_room(2 * n)`` slots.
    O(n + the literals' occurrences)."""
    cdef index_t i, m
    cdef uint8_t* v0 = views
    cdef uint8_t* v1 = views + n
    cdef uint8_t* v2 = views + 2 * n
    cdef const RuleBitFormulas* f = checks.formulas
    cdef const uint8_t* pair[2]
    cdef Py_ssize_t sizes[2]
    cdef double s
    cdef Py_ssize_t n_views = 1
    cdef ckn_ls_facts facts
    # every code point is ASCII here: lower-case into v0 and read the facts in one pass
    if ucs_t is uint8_t:
        ckn_ls_view_facts(d, n, v0, _SIMD_FACTS, &facts)
    else:
        for i in range(n):
            v0[i] = <uint8_t>d[i]
        ckn_ls_view_facts(v0, n, v0, _SIMD_FACTS, &facts)
    if facts.flags & CKN_LS_KEPT:
        return mask
    if facts.flags & CKN_LS_ANGLE:
        for i in range(n - 1):
            if v0[i] == 60 and (v0[i + 1] == 124 or v0[i + 1] == 60):
                return mask
        if facts.flags & CKN_LS_UNDERSCORE:
            return mask
    if facts.apostrophes > 1 or facts.double_quotes > 1:  # one of each kind quotes nothing
        return _quoted_checked(f, v0, v1, v2, n, found, mask, &facts)
    if facts.apostrophes:
        _apostrophes_as_spaces(v0, n)
    m = _view_deobfuscated(v0, n, v1, &facts)
    if m == -1:
        return mask
    pair[0] = v0
    sizes[0] = n
    if m != _UNCHANGED:
        pair[1] = v1
        sizes[1] = m
        n_views = 1 + (m != n or memcmp(v0, v1, n) != 0)
    if mask.lo & f.covered[0] or mask.hi & f.covered[1]:
        formulas_check(f, pair, sizes, n_views, NULL, True, found, &mask.lo, &mask.hi)
    if (checks.model != NULL and (mask.lo & checks.model_bit.lo or mask.hi & checks.model_bit.hi)
            and directive_weight_sum(checks.model, pair, sizes, n_views, ranks, &s) == 0
            and checks.model.bias + s <= checks.model.threshold):
        mask.lo &= ~checks.model_bit.lo
        mask.hi &= ~checks.model_bit.hi
    return mask


cdef index_t _folded(const ucs_t* d, index_t n, const _Checks* checks,
                     uint8_t* out) noexcept nogil:
    """``sanitizer._fold`` of the ``n`` code points at ``d`` as plain ASCII, written to ``out``
    unless it is NULL: every code point >= 128 must have a fold in the table
    (``checks.fold``: context-free, at most ``_FOLD_MAX`` bytes), an ASCII one folds to its
    lower case. Returns the fold's length, or -1 when a code point has no fold. O(n)."""
    cdef index_t i, m = 0, k
    cdef uint32_t c
    cdef uint64_t e
    cdef uint8_t page
    for i in range(n):
        c = d[i]
        if c < 128:
            if out != NULL:
                out[m] = c + 32 if 65 <= c <= 90 else c
            m += 1
            continue
        if ucs_t is uint32_t:
            if c > 0xFFFF:
                return -1
        page = checks.fold_pages[c >> 8]
        if page == 0:
            return -1
        e = checks.fold[(<index_t>(page - 1) << 8) | (c & 255)]
        if e & 255 == _NO_FOLD:
            return -1
        if out != NULL:
            for k in range(<index_t>(e & 255)):
                out[m + k] = (e >> (8 * k + 8)) & 255
        m += e & 255
    return m


cdef bint _folded_mask(const ucs_t* d, index_t n, const _Plan* plan, uint64_t* found,
                       _FoldScratch* scratch, _Mask* mask) noexcept nogil:
    """For a segment with a code point >= 128 (``d[:n]``) whose fold (``_folded``) is plain
    ASCII: set ``mask`` to the mask of the fold read as one plain-ASCII segment
    (``sanitizer._folded_ascii``: the segment's views are the fold's), with the directive
    model's bit set before the views are checked (the model scores every non-ASCII segment),
    plus ``NON_ASCII`` when a bit remains (0 otherwise), and return True. False (``mask``
    untouched) when the segment does not fold, folds to nothing, or memory runs out. The fold
    and its work area go to ``scratch``, grown with ``realloc``. O(n + the fold's checks)."""
    cdef index_t m = _folded(d, n, plan.checks, NULL), at, size, stop
    cdef uint8_t* grown
    cdef uint8_t* work
    cdef _Mask bits
    if m <= 0:
        return False
    at = (m + _HASH_READ + 15) & ~(<index_t>7)   # the work area, 8-byte aligned, after the fold
    size = at + _work_size(m, plan)
    if scratch.size < size:
        grown = <uint8_t*>realloc(scratch.data, size)
        if grown == NULL:
            return False
        scratch.data = grown
        scratch.size = size
    _folded(d, n, plan.checks, scratch.data)
    work = scratch.data + at
    _translate_line(<const uint8_t*>scratch.data, m, plan, work,
                    <uint64_t*>(work + _special_offset(m)), <uint64_t*>(work + _breaks_offset(m)))
    bits = _span_mask(<const uint8_t*>scratch.data, 0, 0, m, False, plan, work,
                      <uint64_t*>(work + _special_offset(m)),
                      <uint64_t*>(work + _breaks_offset(m)), &stop)
    bits.lo |= plan.checks.model_bit.lo
    bits.hi |= plan.checks.model_bit.hi
    if (bits.hi & _SPACED_OUT_HI == 0
            and (bits.lo & plan.checks.reads.lo or bits.hi & plan.checks.reads.hi)):
        bits = _checked(<const uint8_t*>scratch.data, m, plan.checks, work + _views_offset(m),
                        found, <int32_t*>(work + _ranks_offset(m)), bits)
    if bits.lo or bits.hi:
        bits.hi |= _NON_ASCII_HI
    mask[0] = bits
    return True


cdef index_t _candidates(
    const ucs_t* d, index_t n, index_t segment_min, const _Plan* plan,
    uint8_t* work, uint64_t* found, index_t* out, index_t cap, uint8_t* crlf,
    _FoldScratch* scratch,
) noexcept nogil:
    cdef index_t i = 0, start, end, seg, stop, count = 0
    cdef bint split
    cdef _Mask mask
    cdef const void* newline
    cdef uint64_t* special = <uint64_t*>(work + _special_offset(n))
    cdef uint64_t* breaks = <uint64_t*>(work + _breaks_offset(n))
    while i <= n:
        start = i
        if ucs_t is uint8_t:
            newline = memchr(d + start, 10, n - start)
            end = n if newline == NULL else <index_t>(<const uint8_t*>newline - d)
        else:
            end = start
            while end < n and d[end] != 10:
                end += 1
        if end < n and end > start and d[end - 1] == 13:  # "\r\n"
            crlf[0] = 1
        _translate_line(d + start, end - start, plan, work, special, breaks)
        split = end - start > segment_min
        seg = start
        while True:
            mask = _span_mask(d, start, seg, end, split, plan, work, special, breaks, &stop)
            if (plan.checks != NULL and mask.hi & (_NON_ASCII_HI | _SPACED_OUT_HI) == 0
                    and (mask.lo & plan.checks.reads.lo or mask.hi & plan.checks.reads.hi)):
                mask = _checked(d + seg, stop - seg, plan.checks, work + _views_offset(n),
                                found, <int32_t*>(work + _ranks_offset(n)), mask)
            elif plan.checks != NULL and plan.checks.fold != NULL and mask.hi & _NON_ASCII_HI:
                _folded_mask(d + seg, stop - seg, plan, found, scratch, &mask)
            count = _emit(out, cap, count, start, end, seg, stop, mask)
            if stop >= end:
                break
            seg = stop
        i = end + 1  # skip the newline (or step past the end)
    return count


cdef index_t linescan_candidates(
    const void* data, int kind, index_t n, index_t segment_min, const _Plan* plan,
    uint8_t* work, uint64_t* found, index_t* out, index_t cap, uint8_t* crlf,
    _FoldScratch* scratch,
) noexcept nogil:
    """Write ``line_start, line_end, start, end, mask lo, mask hi`` of every candidate segment of the ``n``
    code points at ``data`` (PEP 393 ``kind`` 1, 2 or 4) to ``out``; return how many segments.

    Lines split on ``\\n``; a line longer than ``segment_min`` code points is cut after every
    sentence end (``_sentence_end``) into segments, a shorter line is one segment
    (``sanitizer._segments``). ``plan``: the tables (``_Plan``); ``work``: ``_work_size(n)``
    bytes, 8-byte aligned; ``found``: with ``plan.checks``, a found set from ``_new_found``
    (else unused); ``out``:
    room for ``6 * cap`` indices (the first ``cap`` segments are written; the return value
    counts them all, so a caller can retry with more room). A mask is the rule bits, plus
    ``SPACED_OUT``, or just ``NON_ASCII`` for a segment with a code point >= 128 (128 bits: the
    low and the high word). With ``plan.checks`` and its fold table, such a segment whose fold is
    plain ASCII is read as its fold instead (``_folded_mask``): it is left out when no bit
    remains, else its mask is the fold's bits plus ``NON_ASCII``. ``*crlf`` is set to 1 when a
    line ends in ``\\r`` (the text holds ``\\r\\n``), else left as it is. ``scratch``: the
    folds' buffer (the caller frees ``scratch.data``).
    """
    if kind == 1:
        return _candidates(<const uint8_t*>data, n, segment_min, plan, work, found, out, cap,
                           crlf, scratch)
    if kind == 2:
        return _candidates(<const uint16_t*>data, n, segment_min, plan, work, found, out, cap,
                           crlf, scratch)
    return _candidates(<const uint32_t*>data, n, segment_min, plan, work, found, out, cap, crlf,
                       scratch)


cdef bint _candidates_many(const void** data, const int* kinds, const index_t* lengths, index_t m,
                           index_t segment_min, const _Plan* plan, uint8_t* work, uint64_t* found,
                           index_t** out, index_t* cap, index_t* counts,
                           uint8_t* crlf, _FoldScratch* scratch) noexcept nogil:
    """``linescan_candidates`` of the ``m`` texts one after another into ``*out`` (``*cap``
    indices, grown with ``realloc`` as needed); ``counts[i]``: text i's segments; ``crlf[i]``:
    whether text i holds ``\\r\\n`` (found as its lines are split). ``work``: ``_work_size`` of the longest
    text; ``found``: as ``linescan_candidates`` reads it. Returns True when memory ran out."""
    cdef index_t i, count, used = 0
    cdef index_t* grown
    for i in range(m):
        if i + 1 < m:  # the next text's first lines, while this one is read
            ckn_prefetch_start(data[i + 1], lengths[i + 1] * kinds[i + 1])
        crlf[i] = 0
        count = linescan_candidates(data[i], kinds[i], lengths[i], segment_min, plan, work,
                                    found, out[0] + used, (cap[0] - used) // 6, crlf + i,
                                    scratch)
        if 6 * count > cap[0] - used:  # grow, then run this text again
            cap[0] = 2 * cap[0] + 6 * count
            grown = <index_t*>realloc(out[0], cap[0] * sizeof(index_t))
            if grown == NULL:
                return True
            out[0] = grown
            count = linescan_candidates(data[i], kinds[i], lengths[i], segment_min, plan, work,
                                        found, out[0] + used, (cap[0] - used) // 6, crlf + i,
                                        scratch)
        counts[i] = count
        used += 6 * count
    return False


ctypedef struct _ManyState:
    const void** data
    int* kinds
    index_t* lengths
    index_t m
    index_t segment_min
    _Plan plan
    uint8_t* work
    uint64_t* found
    index_t* out
    index_t cap
    index_t* counts
    uint8_t* crlf
    _FoldScratch scratch
    int status               # 1 until the pass has run


cdef int _many_run(void* state) noexcept nogil:
    cdef _ManyState* s = <_ManyState*>state
    s.status = CKN_ENOMEM if _candidates_many(
        s.data, s.kinds, s.lengths, s.m, s.segment_min, &s.plan, s.work, s.found, &s.out, &s.cap,
        s.counts, s.crlf, &s.scratch) else CKN_OK
    return s.status


cdef uint64_t _word_hash(bytes word):
    """``ckn_ls_hash`` of a table word (copied with the slack it reads)."""
    cdef bytes padded = word + bytes(_HASH_READ + 8)
    return ckn_ls_hash(<const uint8_t*><const char*>padded, len(word))


cdef uint32_t _word_quick_key(bytes word):
    """``ckn_ls_quick_key`` of a table word (copied with the slack it reads)."""
    cdef bytes padded = word + bytes(8)
    return ckn_ls_quick_key(<const uint8_t*><const char*>padded, len(word))


cdef class LineScanner:
    """The candidate-line pass configured with the sanitizer's anchors, word table and markers.

    Parameters
    ----------
    anchors : dict of bytes to int
        Anchor word (as ``_ascii_plan`` compares words) -> bit set of its rules.
    table : bytes
        256-byte word table; only its first 128 bytes are used (ASCII lines only).
    dropped : bytes
        In-word punctuation left out of the second reading.
    markers : dict of str to int
        Two printable ASCII characters (no space) -> bit set of its rules.
    word_groups : dict of bytes to int
        Word -> the group bits (128-bit mask) of the required word sets it belongs to.
    char_groups : dict of str to int
        ASCII character -> the group bits of the required character sets it belongs to.
    substring_mask : int
        The rule bits (128-bit mask) that table words found as substrings of a segment with
        spaced-out letters may set (``_substring_bits``); the others come from its words only.
    needs : list of (int, int, int)
        For each rule: (the index of its rule bit, the group bits it needs among all words, the
        group bits the first word of a word view must have); a rule bit survives when one of
        its entries is met. A rule bit with no entry is dropped, so list every rule (0, 0 when
        it requires nothing).

    Rule bits are bits 0 to 125 of a 128-bit mask (``SPACED_OUT``, ``NON_ASCII`` above them).
    """

    cdef bytes _table, _dropped, _simple, _special, _lut, _flags, _pairs, _pair_masks, _slots, _filter, _char_groups, _needs
    cdef index_t _first_need[127]
    cdef _Plan _plan

    def __init__(self, dict anchors not None, bytes table not None, bytes dropped not None,
                 dict markers not None, dict word_groups not None, dict char_groups not None,
                 substring_mask, list needs not None):
        if len(table) != 256:
            raise ValueError(f"table: expected 256 bytes, got {len(table)}")
        self._table = table[:128] + bytes(128)
        flags = bytearray(128)
        for b in dropped:
            if b < 128:
                flags[b] = 1
        self._dropped = bytes(flags)
        import array
        words = {}
        for word, bits in anchors.items():
            if bits >> 126:
                raise ValueError(f"anchor {word!r}: rule bits {bits:#x} reach the flag bits")
            words[word] = [bits, 0]
        for word, bits in word_groups.items():
            words.setdefault(word, [0, 0])[1] |= bits
        cdef Py_ssize_t size = 16
        while size < 4 * len(words) + 16:
            size *= 2
        slots = array.array("Q", bytes(8 * _SLOT * size))
        filter = array.array("Q", bytes(8 * _FILTER_WORDS))
        cdef uint64_t h, k, bit
        cdef index_t way
        cdef index_t max_len = 0
        for word, (bits, groups) in words.items():
            if not isinstance(word, bytes) or not word or any(_is_space(b) for b in word):
                raise ValueError(f"word {word!r}: must be non-empty bytes without whitespace")
            h = _word_hash(word)
            bit = _word_quick_key(word)
            filter[bit >> 6] |= (<uint64_t>1) << (bit & 63)
            if len(word) > _WORD2:
                raise ValueError(f"word {word[:16]!r}...: longer than {_WORD2} bytes")
            max_len = max(max_len, len(word))
            k = h & (size - 1)
            while slots[_SLOT * k] != 0 and slots[_SLOT * k] != h:
                k = (k + 1) & (size - 1)
            slots[_SLOT * k] = h
            slots[_SLOT * k + 1] |= bits & _LOW64
            slots[_SLOT * k + 2] |= bits >> 64
            slots[_SLOT * k + 3] |= groups & _LOW64
            slots[_SLOT * k + 4] |= groups >> 64
        self._slots = slots.tobytes()
        self._filter = filter.tobytes()
        pairs = bytearray(128 * 128)
        masks = [0, 0]
        for marker, bits in markers.items():
            if len(marker) != 2 or not marker.isascii() or not marker.isprintable() or " " in marker:
                raise ValueError(f"marker {marker!r}: must be two printable ASCII characters, no space")
            if bits >> 126:
                raise ValueError(f"marker {marker!r}: rule bits {bits:#x} reach the flag bits")
            masks.extend((bits & _LOW64, bits >> 64))
            pairs[(ord(marker[0]) << 7) | ord(marker[1])] = len(masks) // 2 - 1
        if len(masks) > 512:
            raise ValueError("markers: at most 255")
        self._pairs = bytes(pairs)
        flags = bytearray(128)
        for marker in markers:
            flags[ord(marker[0])] |= _MARKER_START
        for mark in b".!?":
            flags[mark] |= _SENTENCE_MARK
        self._flags = bytes(flags)
        self._pair_masks = array.array("Q", masks).tobytes()
        per_char = array.array("Q", bytes(16 * 128))
        for char, bits in char_groups.items():
            if len(char) != 1 or not char.isascii():
                raise ValueError(f"character {char!r}: must be one ASCII character")
            per_char[2 * ord(char)] |= bits & _LOW64
            per_char[2 * ord(char) + 1] |= bits >> 64
        self._char_groups = per_char.tobytes()
        self._special = bytes(
            bool(_is_space(table[c]) or self._dropped[c] or self._flags[c]
                 or per_char[2 * c] or per_char[2 * c + 1]) for c in range(128)) + b"\x01" * 128
        self._simple = bytes(
            bool(_is_space(table[c]) and not self._dropped[c] and not self._flags[c]
                 and not per_char[2 * c] and not per_char[2 * c + 1] and c not in b"<[")
            for c in range(128)) + bytes(128)
        lut = bytearray(self._table[:128]) + bytearray(48)
        for c in range(128):
            if not self._special[c]:
                lut[128 + (c & 15)] |= 1 << (c >> 4)
            if self._simple[c]:
                lut[160 + (c & 15)] |= 1 << (c >> 4)
        for h in range(8):
            lut[144 + h] = 1 << h
        self._lut = bytes(lut)
        flat = array.array("Q")
        for way in range(127):
            self._first_need[way] = 0
        for bit, need, need_first in sorted(needs, key=lambda way: way[0]):
            if not 0 <= bit < 126:
                raise ValueError(f"needs: rule bit index {bit} is not in 0..125")
            if need >> 128 or need_first >> 128:
                raise ValueError(f"needs: group bits {need:#x}, {need_first:#x} exceed 128 bits")
            flat.extend((bit, need & _LOW64, need >> 64, need_first & _LOW64, need_first >> 64))
            self._first_need[bit + 1] += 1
        for way in range(1, 127):  # counts -> the start of each bit's ways
            self._first_need[way] += self._first_need[way - 1]
        self._needs = flat.tobytes()
        self._plan.table = <const uint8_t*><const char*>self._table
        self._plan.dropped = <const uint8_t*><const char*>self._dropped
        self._plan.special = <const uint8_t*><const char*>self._special
        self._plan.simple = <const uint8_t*><const char*>self._simple
        self._plan.lut = <const uint8_t*><const char*>self._lut
        self._plan.pairs = <const uint8_t*><const char*>self._pairs
        self._plan.flags = <const uint8_t*><const char*>self._flags
        self._plan.pair_masks = <const uint64_t*><const char*>self._pair_masks
        self._plan.slots = <const uint64_t*><const char*>self._slots
        self._plan.slot_mask = size - 1
        self._plan.filter = <const uint64_t*><const char*>self._filter
        self._plan.max_len = max_len
        self._plan.substring_mask.lo = substring_mask & _LOW64
        self._plan.substring_mask.hi = (substring_mask >> 64) & _LOW64
        self._plan.char_groups = <const uint64_t*><const char*>self._char_groups
        self._plan.needs = <const uint64_t*><const char*>self._needs
        self._plan.first_need = self._first_need
        self._plan.checks = NULL

    def candidates_many(self, texts, index_t segment_min, list crlf=None,
                        ViewChecks checks=None):
        """``candidates`` of every text of the sequence ``texts`` in one pass (one GIL release
        when the texts hold at least ``NOGIL_MIN_WORK`` code points, ``ckn/typedefs.pxd``): a
        list of ``(i, spans)`` for the texts ``texts[i]`` that have candidate segments, in
        order, ``spans`` as ``candidates`` returns them. The same pass appends to ``crlf`` (if
        given) the index of each text that holds ``\\r\\n``, in order. ``checks``: as for
        ``candidates``. O(total length)."""
        cdef CandidatesPass p = CandidatesPass(self, texts, segment_min, checks)
        p.run()
        return p.finish(crlf)

    def candidates(self, str text not None, index_t segment_min, ViewChecks checks=None):
        """Flat ``[line_start, line_end, start, end, mask, …]`` for the segments of ``text`` that
        can match a rule (code-point offsets; lines split on ``\\n``, lines longer than
        ``segment_min`` cut after sentence ends; ``mask`` as described in
        ``linescan_candidates``, as one non-negative 128-bit int). Every other segment is plain ASCII
        with no anchor, marker or spaced-out letters, or one whose rules lack a required word
        or character. With ``checks`` (``ViewChecks``), a plain-ASCII segment also loses the
        rule bits whose rules' literal formulas hold on none of its views and the model's bit
        when the model scores its views at or below the threshold (``_checked``), and is left
        out when no bit remains."""
        cdef index_t n = PyUnicode_GET_LENGTH(text)
        cdef const void* data = PyUnicode_DATA(text)
        cdef int kind = PyUnicode_KIND(text)
        cdef index_t stack[6 * 16]
        cdef index_t* o = stack
        cdef index_t cap = 16, count
        cdef uint8_t crlf = 0  # (not reported here)
        cdef bytearray out
        cdef _Plan plan = self._plan
        plan.checks = NULL if checks is None else &checks.c
        cdef uint8_t* w = <uint8_t*>malloc(_work_size(n, &plan))
        cdef uint64_t* found = NULL
        cdef _FoldScratch scratch
        scratch.data = NULL
        scratch.size = 0
        if w == NULL:
            raise MemoryError()
        try:
            if plan.checks != NULL:
                found = _new_found(&plan)
            while True:  # room for 16 segments on the stack, else exactly as many as needed
                if n >= NOGIL_MIN_WORK:
                    with nogil:
                        count = linescan_candidates(data, kind, n, segment_min, &plan, w,
                                                    found, o, cap, &crlf, &scratch)
                else:
                    count = linescan_candidates(data, kind, n, segment_min, &plan, w,
                                                found, o, cap, &crlf, &scratch)
                if count <= cap:
                    break
                cap = count
                out = bytearray(6 * cap * sizeof(index_t))
                o = <index_t*><char*>out
            return _spans(o, count)
        finally:
            free(w)
            free(found)
            free(scratch.data)


@cython.final
cdef class CandidatesPass:
    """``LineScanner.candidates_many`` prepared (texts checked, buffers allocated) to run
    without the GIL (``ckn._passes``); :meth:`finish` gives its result."""

    cdef ckn_pass c
    cdef _ManyState s
    cdef tuple items          # holds the strings while the pass reads them
    cdef ViewChecks checks    # holds the checks s.plan points to
    cdef readonly index_t length  # code points of all texts

    def __cinit__(self, LineScanner scanner not None, texts, index_t segment_min,
                  ViewChecks checks=None):
        self.items = tuple(texts)
        cdef index_t m = len(self.items), i, longest = 0
        self.c.run = _many_run
        self.c.state = &self.s
        self.s.status = 1
        self.s.m = m
        self.s.segment_min = segment_min
        for i in range(m):
            if not isinstance(self.items[i], str):
                raise CknTypeError(f"texts[{i}]: expected str, got {type(self.items[i]).__name__}")
            self.length += PyUnicode_GET_LENGTH(self.items[i])
            longest = max(longest, PyUnicode_GET_LENGTH(self.items[i]))
        self.checks = checks
        self.s.plan = scanner._plan
        self.s.plan.checks = NULL if checks is None else &checks.c
        self.s.data = <const void**>malloc((m + 1) * sizeof(void*))
        self.s.kinds = <int*>malloc((m + 1) * sizeof(int))
        self.s.lengths = <index_t*>malloc((m + 1) * sizeof(index_t))
        self.s.counts = <index_t*>malloc((m + 1) * sizeof(index_t))
        self.s.crlf = <uint8_t*>malloc(m + 1)
        self.s.work = <uint8_t*>malloc(_work_size(longest, &self.s.plan))
        self.s.cap = 6 * (m + 64)
        self.s.out = <index_t*>malloc(self.s.cap * sizeof(index_t))
        if not (self.s.data and self.s.kinds and self.s.lengths and self.s.counts and self.s.crlf
                and self.s.work and self.s.out):
            raise MemoryError()
        if checks is not None:
            self.s.found = _new_found(&self.s.plan)
        for i in range(m):
            self.s.data[i] = PyUnicode_DATA(self.items[i])
            self.s.kinds[i] = PyUnicode_KIND(self.items[i])
            self.s.lengths[i] = PyUnicode_GET_LENGTH(self.items[i])

    def __dealloc__(self):
        free(self.s.data)
        free(self.s.kinds)
        free(self.s.lengths)
        free(self.s.counts)
        free(self.s.crlf)
        free(self.s.work)
        free(self.s.found)
        free(self.s.out)
        free(self.s.scratch.data)

    def _pass(self):
        return pass_capsule(&self.c)

    def run(self):
        """Run the pass here (the GIL released when the texts are long enough)."""
        run_pass(&self.c, self.length >= NOGIL_MIN_WORK)

    def finish(self, list crlf=None):
        """The ``(i, spans)`` list of ``candidates_many``; appends to ``crlf`` (if given) the
        indices of the texts holding ``\\r\\n``."""
        if self.s.status == 1:
            raise RuntimeError("CandidatesPass.finish: the pass has not run")
        if self.s.status != CKN_OK:
            raise MemoryError()
        cdef index_t i, used = 0
        result = []
        for i in range(self.s.m):
            if self.s.counts[i]:
                result.append((i, _spans(self.s.out + used, self.s.counts[i])))
                used += 6 * self.s.counts[i]
        if crlf is not None:
            for i in range(self.s.m):
                if self.s.crlf[i]:
                    crlf.append(i)
        return result


cdef class ViewChecks:
    """What the compiled pass checks on a plain-ASCII segment's views (``_checked``): the
    rules' literal formulas per rule bit (``formulas``), and, when ``model`` is given, the
    directive model's score, whose anchor words set rule bit ``model_bit`` (0..125). With
    ``fold`` (bytes), a segment with a code point >= 128 whose code points all have a fold in
    that table is read as its fold (``_folded_mask``): 256 bytes, for each block of 256 code
    points 0 or 1 + its page, then 256 native-endian uint64 per page, one per code point of the
    block: ``(fold bytes, little-endian) << 8 | length`` (length <= 7, all bytes ASCII), or
    ``0xFF`` for no fold. The table must be context-free: the fold of a string of ASCII and
    table code points is the folds of its code points, ASCII lower-cased (``sanitizer`` builds
    and tests it). Read without the GIL; immutable."""

    cdef _Checks c
    cdef readonly FormulaBits formulas
    cdef readonly AsciiScorer model
    cdef readonly bytes fold
    cdef uint8_t* _fold

    def __cinit__(self, FormulaBits formulas not None, AsciiScorer model, int model_bit,
                  bytes fold=None):
        cdef Py_ssize_t pages, k
        if not 0 <= model_bit < 126:
            raise ValueError(f"model_bit: {model_bit} is not in 0..125")
        self.c.fold_pages = NULL
        self.c.fold = NULL
        if fold is not None:
            pages = max(fold[:256], default=0)
            if len(fold) != 256 + 8 * 256 * pages or pages == 0:
                raise ValueError(f"fold: {len(fold)} bytes is not 256 page bytes and 256 entries"
                                 f" of 8 bytes for each of {pages} pages")
            for k in range(256 * pages):
                e = int.from_bytes(fold[256 + 8 * k:264 + 8 * k], _sys.byteorder)
                length = e & 255
                if length != _NO_FOLD and (length > _FOLD_MAX or e >> (8 + 8 * length)
                                           or not (e >> 8).to_bytes(7, "little").isascii()):
                    raise ValueError(f"fold: entry {k} is not up to {_FOLD_MAX} ASCII bytes")
            self._fold = <uint8_t*>malloc(len(fold))  # (8-byte aligned for the entries)
            if self._fold == NULL:
                raise MemoryError()
            memcpy(self._fold, <const char*>fold, len(fold))
            self.fold = fold
            self.c.fold_pages = self._fold
            self.c.fold = <const uint64_t*>(self._fold + 256)
        self.formulas = formulas
        self.model = model
        self.c.formulas = &formulas.data
        self.c.model = NULL if model is None else &model.t
        self.c.model_bit.lo = (1ULL << model_bit) if model_bit < 64 else 0
        self.c.model_bit.hi = (1ULL << (model_bit - 64)) if model_bit >= 64 else 0
        self.c.reads.lo = formulas.data.covered[0] | (self.c.model_bit.lo if model is not None else 0)
        self.c.reads.hi = formulas.data.covered[1] | (self.c.model_bit.hi if model is not None else 0)

    def __dealloc__(self):
        free(self._fold)

    def folded(self, str text not None):
        """The fold of ``text`` as the compiled pass reads it (``_folded``): a str, or None when
        a code point >= 128 has no fold in the table (or there is no table). O(len(text))."""
        if self.c.fold == NULL:
            return None
        cdef index_t n = PyUnicode_GET_LENGTH(text), m
        cdef int kind = PyUnicode_KIND(text)
        cdef const void* data = PyUnicode_DATA(text)
        m = (_folded(<const uint8_t*>data, n, &self.c, NULL) if kind == 1 else
             _folded(<const uint16_t*>data, n, &self.c, NULL) if kind == 2 else
             _folded(<const uint32_t*>data, n, &self.c, NULL))
        if m < 0:
            return None
        cdef bytearray out = bytearray(m)
        if kind == 1:
            _folded(<const uint8_t*>data, n, &self.c, <uint8_t*>out)
        elif kind == 2:
            _folded(<const uint16_t*>data, n, &self.c, <uint8_t*>out)
        else:
            _folded(<const uint32_t*>data, n, &self.c, <uint8_t*>out)
        return out.decode("ascii")


cdef list _spans(const index_t* o, index_t count):
    """The flat Python list ``[line_start, line_end, start, end, mask, …]`` of ``count``
    segments written by ``linescan_candidates`` (the two mask words joined into one int)."""
    cdef list result = []
    cdef index_t k
    for k in range(count):
        result += [o[6 * k], o[6 * k + 1], o[6 * k + 2], o[6 * k + 3],
                   <uint64_t>o[6 * k + 4] | (<object><uint64_t>o[6 * k + 5]) << 64]
    return result
