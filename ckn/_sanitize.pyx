"""Compiled line scorer of the sanitizer (see ``tools/sanitizer_reference.py`` for the same steps in Python).

``SanitizePass(texts, model)`` reads the texts' own buffers and, without the GIL, cuts each into
segments at every line boundary, folds each code point (compatibility forms, case, invisible and
Tag characters, look-alikes, leet), finds the lexicon's concepts with a trie, and for a segment
with at least two concepts sums int32 feature weights; it also checks the structural table.
O(total length); per segment linear in its length (at most 64 concept hits, pairs within 6).
"""
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_KIND
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t, uint8_t
from libc.stdlib cimport calloc, free, malloc, realloc

from ckn._passes cimport ckn_pass, pass_capsule, run_pass
from ckn.typedefs cimport CKN_ENOMEM, CKN_OK

cdef extern from "Python.h":
    Py_ssize_t PyUnicode_GET_LENGTH(object o)

cdef enum:
    MIN_HITS = 2
    MAX_HITS = 64
    PAIR_WINDOW = 6
    N_SHAPE = 18
    WORD_BITS = 15


cdef struct model_t:
    int32_t k
    const int32_t* weights
    Py_ssize_t n_weights
    const uint64_t* tkeys
    const int32_t* tvals
    uint64_t tmask
    const int32_t* end_concept
    const uint8_t* end_whole
    const int32_t* root            # child of the root for an ASCII code point, or -1
    const int32_t* level2          # node after two ASCII code points (c1 * 128 + c2), or -1
    const uint32_t* spoints        # structural entries, concatenated
    const int64_t* soffsets        # entry e: spoints[soffsets[e]:soffsets[e + 1]]
    const uint8_t* sanywhere
    Py_ssize_t n_struct
    uint64_t first_mask[2]         # ASCII first characters of the "anywhere" entries


cdef struct scratch_t:
    uint32_t* raw
    uint32_t* chars
    uint8_t* flags
    uint8_t* chain
    int32_t* stamp
    int32_t* feats
    Py_ssize_t cap
    int32_t line_id
    bint saw_tag                  # a Tag character (U+E0000..U+E007F) was folded


cdef inline bint invisible(uint32_t c) noexcept nogil:
    return (c == 0xAD or c == 0x34F or c == 0x61C or c == 0x115F or c == 0x1160 or c == 0x17B4
            or c == 0x17B5 or 0x180B <= c <= 0x180F or 0x200B <= c <= 0x200F or 0x202A <= c <= 0x202E
            or 0x2060 <= c <= 0x206F or c == 0x3164 or 0xFE00 <= c <= 0xFE0F or c == 0xFEFF
            or c == 0xFFA0 or 0x1BCA0 <= c <= 0x1BCA3 or 0x1D173 <= c <= 0x1D17A
            or 0xE0000 <= c <= 0xE001F or c == 0xE007F or 0xE0100 <= c <= 0xE01EF)


cdef inline bint wide(uint32_t c) noexcept nogil:
    return (0x0E00 <= c <= 0x0EFF or 0x1000 <= c <= 0x109F or 0x1100 <= c <= 0x11FF
            or 0x1780 <= c <= 0x17FF or 0x2E80 <= c <= 0x2FDF or 0x3040 <= c <= 0x31FF
            or 0x3400 <= c <= 0x4DBF or 0x4E00 <= c <= 0x9FFF or 0xAC00 <= c <= 0xD7AF
            or 0xF900 <= c <= 0xFAFF or 0x20000 <= c <= 0x3FFFF)


cdef inline bint word_char(uint32_t c) noexcept nogil:
    if c < 0x80:
        return 0x30 <= c <= 0x39 or 0x61 <= c <= 0x7A or 0x41 <= c <= 0x5A
    return not (c <= 0xBF or c == 0xD7 or c == 0xF7 or c == 0x37E or c == 0x387 or 0x55A <= c <= 0x55F
                or c == 0x589 or c == 0x60C or c == 0x61B or c == 0x61F or c == 0x6D4 or c == 0x964
                or c == 0x965 or c == 0xE5A or c == 0xE5B or c == 0x1680 or 0x2000 <= c <= 0x2BFF
                or 0x2E00 <= c <= 0x2E7F or 0x3000 <= c <= 0x303F or 0xD800 <= c <= 0xF8FF
                or 0xFE10 <= c <= 0xFE6F or 0xFF00 <= c <= 0xFF0F or 0xFFF0 <= c <= 0xFFFF
                or 0x1F000 <= c <= 0x1FAFF)


cdef inline uint32_t rd(int kind, const void* d, Py_ssize_t i) noexcept nogil:
    if kind == 1:
        return (<const uint8_t*>d)[i]
    if kind == 2:
        return (<const uint16_t*>d)[i]
    return (<const uint32_t*>d)[i]


cdef inline uint32_t lower1(uint32_t c) noexcept nogil:
    """Compatibility forms and case of one code point (first code point of a ligature)."""
    if c < 0x80:
        return c + 32 if 0x41 <= c <= 0x5A else c
    if 0xFF01 <= c <= 0xFF5E:
        c -= 0xFEE0
        return c + 32 if 0x41 <= c <= 0x5A else c
    if c == 0xA0 or c == 0x3000 or 0x2000 <= c <= 0x200A:
        return 0x20
    if c <= 0xDE:
        return c + 32 if (c >= 0xC0 and c != 0xD7) else c
    if c == 0xDF or c == 0x17F:
        return 0x73
    if c <= 0x17F:
        if c == 0x130:
            return 0x69
        if c == 0x178:
            return 0xFF
        if (0x100 <= c <= 0x12F or 0x132 <= c <= 0x137 or 0x14A <= c <= 0x177) and c % 2 == 0:
            return c + 1
        if (0x139 <= c <= 0x148 or 0x179 <= c <= 0x17E) and c % 2 == 1:
            return c + 1
        return c
    if 0x391 <= c <= 0x3A9 and c != 0x3A2:
        return c + 32
    if c == 0x3C2:
        return 0x3C3
    if 0x410 <= c <= 0x42F:
        return c + 32
    if 0x400 <= c <= 0x40F:
        return c + 80
    if (0x1E00 <= c <= 0x1E95 or 0x1EA0 <= c <= 0x1EFF) and c % 2 == 0:
        return c + 1
    if 0x1D400 <= c <= 0x1D6A3:
        return 0x61 + (c - 0x1D400) % 52 % 26
    if 0x1D7CE <= c <= 0x1D7FF:
        return 0x30 + (c - 0x1D7CE) % 10
    if 0x24B6 <= c <= 0x24CF:
        return 0x61 + c - 0x24B6
    if 0x24D0 <= c <= 0x24E9:
        return 0x61 + c - 0x24D0
    if 0xFB00 <= c <= 0xFB06:
        return 0x73 if c >= 0xFB05 else 0x66
    return c


cdef inline int fold_cp(uint32_t c, uint32_t* out) noexcept nogil:
    """The folded code points of one code point (0 to 3): Tag characters decode to lower-case
    ASCII, invisible ones are dropped, then :func:`lower1`, the ß/ligature expansions, look-alikes."""
    if 0xE0020 <= c <= 0xE007E:
        c -= 0xE0000
        out[0] = c + 32 if 0x41 <= c <= 0x5A else c
        return 1
    if c >= 0xAD and invisible(c):
        return 0
    if c == 0xDF:
        out[0] = 0x73
        out[1] = 0x73
        return 2
    if 0xFB00 <= c <= 0xFB06:
        if c >= 0xFB05:
            out[0] = 0x73
            out[1] = 0x74
            return 2
        out[0] = 0x66
        out[1] = 0x66 if c == 0xFB00 else 0x69 if c == 0xFB01 else 0x6C if c == 0xFB02 else 0x66
        if c <= 0xFB02:
            return 2
        out[2] = 0x69 if c == 0xFB03 else 0x6C
        return 3
    out[0] = confusable(lower1(c))
    return 1


cdef inline uint32_t confusable(uint32_t c) noexcept nogil:
    if c < 0x131 or c > 0x57D:
        return c
    if c == 0x430 or c == 0x3B1 or c == 0x251: return 0x61
    if c == 0x435: return 0x65
    if c == 0x43E or c == 0x3BF: return 0x6F
    if c == 0x440 or c == 0x3C1: return 0x70
    if c == 0x441: return 0x63
    if c == 0x443: return 0x79
    if c == 0x445 or c == 0x3C7: return 0x78
    if c == 0x456 or c == 0x3B9 or c == 0x131: return 0x69
    if c == 0x458: return 0x6A
    if c == 0x455: return 0x73
    if c == 0x501: return 0x64
    if c == 0x4BB: return 0x68
    if c == 0x4CF: return 0x6C
    if c == 0x3BA: return 0x6B
    if c == 0x3BD: return 0x76
    if c == 0x3C5 or c == 0x57D: return 0x75
    if c == 0x261: return 0x67
    if c == 0x578: return 0x6E
    return c


cdef inline uint32_t leet(uint32_t c) noexcept nogil:
    if c == 0x30: return 0x6F
    if c == 0x31: return 0x69
    if c == 0x33: return 0x65
    if c == 0x34 or c == 0x40: return 0x61
    if c == 0x35 or c == 0x24: return 0x73
    if c == 0x37: return 0x74
    return 0


cdef inline bint latin(uint32_t c) noexcept nogil:
    return 0x61 <= c <= 0x7A


cdef inline bint sent_char(uint32_t c) noexcept nogil:
    return (c == 0x2E or c == 0x21 or c == 0x3F or c == 0x3B or c == 0x3A or c == 0x3002 or c == 0x964
            or c == 0x965 or c == 0x61F or c == 0x6D4)


cdef inline bint quote_char(uint32_t c) noexcept nogil:
    return (c == 0x22 or c == 0x27 or c == 0x60 or c == 0x201C or c == 0x201D or c == 0x201E
            or c == 0x2018 or c == 0x2019 or c == 0xAB or c == 0xBB or 0x300C <= c <= 0x300F)


cdef inline bint code_char(uint32_t c) noexcept nogil:
    return (c == 0x3D or c == 0x28 or c == 0x29 or c == 0x7B or c == 0x7D or c == 0x5B or c == 0x5D
            or c == 0x3B or c == 0x3C or c == 0x3E or c == 0x5F or c == 0x7C or c == 0x5C or c == 0x2F
            or c == 0x23)


cdef inline int32_t trie_next(const model_t* m, int32_t node, uint32_t c) noexcept nogil:
    cdef uint64_t key = <uint64_t>node * 0x110000 + c
    cdef uint64_t h = (key * 0x9E3779B97F4A7C15ULL) >> 20
    cdef uint64_t slot
    while True:
        slot = h & m.tmask
        if m.tkeys[slot] == key:
            return m.tvals[slot]
        if m.tkeys[slot] == 0xFFFFFFFFFFFFFFFFULL:
            return -1
        h += 1


cdef inline Py_ssize_t bucket(Py_ssize_t x, Py_ssize_t a, Py_ssize_t b, Py_ssize_t c, Py_ssize_t d,
                              Py_ssize_t e) noexcept nogil:
    return (x >= a) + (x >= b) + (x >= c) + (x >= d) + (x >= e)


cdef inline void add(scratch_t* s, int32_t* nf, int32_t f) noexcept nogil:
    if s.stamp[f] != s.line_id:
        s.stamp[f] = s.line_id
        s.feats[nf[0]] = f
        nf[0] += 1


cdef bint score_segment(const model_t* m, scratch_t* s, int kind, const void* data, Py_ssize_t a,
                        Py_ssize_t b, int64_t* score) noexcept nogil:
    """Score of the segment data[a:b] (reference: ``features`` + ``score``) into ``score``; False
    (not scored) when it has fewer than MIN_HITS concept hits."""
    cdef Py_ssize_t i, j, nr = 0, nc = 0, n_words = 0, nh = 0, code = 0, pipes = 0
    cdef uint32_t c, l
    cdef bint w, prev_word = False, prev_wide = False, sep_sent = True, inq = False
    cdef bint initial_done = False, question = False, quote = False, ok
    cdef uint32_t last_nonspace = 0
    cdef uint8_t f
    cdef int32_t hc[MAX_HITS]
    cdef uint8_t hf[MAX_HITS]
    cdef int32_t used[MAX_HITS]
    cdef Py_ssize_t nu = 0
    cdef int32_t k = m.k, node, nf = 0, con, base
    cdef uint32_t hsh, prev = 0
    cdef Py_ssize_t chained = 0
    cdef int64_t total = 0
    # 1. fold
    for i in range(a, b):
        c = rd(kind, data, i)
        if c >= 0xE0000 and c <= 0xE007F:
            s.saw_tag = True
        nr += fold_cp(c, s.raw + nr)
    # 2. stream
    for i in range(nr):
        c = s.raw[i]
        l = leet(c)
        if l != 0 and ((i > 0 and latin(s.raw[i - 1])) or (i + 1 < nr and latin(s.raw[i + 1]))):
            c = l
        if word_char(c):
            w = wide(c)
            if not prev_word or w or prev_wide:
                f = 1
                if sep_sent:
                    f |= 4
                if not initial_done and not (0x30 <= c <= 0x39):
                    f |= 16
                    initial_done = True
                if nc > 0 and (w or prev_wide):
                    s.flags[nc - 1] |= 2
                n_words += 1
                sep_sent = False
            else:
                f = 0
            if inq:
                f |= 8
            s.chars[nc] = c
            s.flags[nc] = f
            nc += 1
            prev_word = True
            prev_wide = w
        else:
            if prev_word and nc > 0:
                s.flags[nc - 1] |= 2
            prev_word = False
            prev_wide = False
            if sent_char(c):
                sep_sent = True
            if quote_char(c):
                quote = True
            if c == 0x22 or c == 0x201C or c == 0x201D:
                inq = not inq
            elif c == 0x201E or c == 0xAB or c == 0x300C or c == 0x300E:
                inq = True
            elif c == 0xBB or c == 0x300D or c == 0x300F:
                inq = False
            if c == 0x3F:
                question = True
            if code_char(c):
                code += 1
            if c == 0x7C:
                pipes += 1
        if c != 0x20 and c != 0x09:
            last_nonspace = c
    if nc > 0:
        s.flags[nc - 1] |= 2
    if n_words == 0:
        return False
    # 3. concepts
    for i in range(nc + 3):
        s.chain[i] = 0
    for i in range(nc):
        if not (s.flags[i] & 1 or s.chain[i]):
            continue
        node = 0
        j = i
        while j < nc and nh < MAX_HITS:
            c = s.chars[j]
            if j == i and c < 128:
                node = m.root[c]
            elif j == i + 1 and c < 128 and s.chars[i] < 128:
                node = m.level2[s.chars[i] * 128 + c]
            else:
                node = trie_next(m, node, c)
            if node < 0:
                break
            con = m.end_concept[node]
            if s.flags[i] & 1:
                ok = m.end_whole[node] == 0 or (s.flags[j] & 2) != 0
            else:
                ok = j - i >= 2
            if con >= 0 and ok:
                hc[nh] = con
                hf[nh] = s.flags[i] if s.flags[i] & 1 else 32 | (s.flags[i] & 8)
                chained += (s.flags[i] & 1) == 0
                nh += 1
                s.chain[j + 1] = 1
                s.chain[j + 2] = 1
                s.chain[j + 3] = 1
            j += 1
        if nh == MAX_HITS:
            break
    if nh < MIN_HITS:
        return False
    # 4. features
    s.line_id += 1
    add(s, &nf, 0)
    for i in range(nh):
        if hf[i] & 8:
            add(s, &nf, 1 + 3 * k + hc[i])
            continue
        add(s, &nf, 1 + hc[i])
        if hf[i] & 16:
            add(s, &nf, 1 + k + hc[i])
        if hf[i] & 4:
            add(s, &nf, 1 + 2 * k + hc[i])
        used[nu] = hc[i]
        nu += 1
    for i in range(nu):
        for j in range(i + 1, min(i + 1 + PAIR_WINDOW, nu)):
            add(s, &nf, 1 + 4 * k + min(used[i], used[j]) * k + max(used[i], used[j]))
    base = 1 + 4 * k + k * k
    add(s, &nf, base + <int32_t>bucket(n_words, 3, 6, 11, 21, 41))
    add(s, &nf, base + 6 + <int32_t>bucket(nh, 1, 2, 3, 5, 9))
    if last_nonspace == 0x3A:
        add(s, &nf, base + 12)
    if question:
        add(s, &nf, base + 13)
    if quote:
        add(s, &nf, base + 14)
    if code >= 4:
        add(s, &nf, base + 15)
    if pipes >= 2:
        add(s, &nf, base + 16)
    if chained >= 2:
        add(s, &nf, base + 17)
    base += N_SHAPE
    hsh = 2166136261u
    for i in range(nc):
        if s.flags[i] & 1:
            hsh = 2166136261u
        hsh = (hsh ^ s.chars[i]) * 16777619u
        if s.flags[i] & 2:
            add(s, &nf, base + <int32_t>(hsh >> (32 - WORD_BITS)))
            add(s, &nf, base + <int32_t>((((prev * 31u) ^ hsh) * 16777619u) & ((1u << WORD_BITS) - 1)))
            prev = hsh
    for i in range(nf):
        total += m.weights[s.feats[i]]
    score[0] = total
    return True


cdef inline bint skippable(uint32_t c) noexcept nogil:
    return c == 0x20 or c == 0x09 or (c >= 0xAD and invisible(c))


cdef bint struct_at(const model_t* m, Py_ssize_t e, int kind, const void* data, Py_ssize_t i,
                    Py_ssize_t b) noexcept nogil:
    """Whether structural entry e matches data[i:b] (folded; spaces, tabs, invisibles skipped)."""
    cdef Py_ssize_t p = m.soffsets[e], end = m.soffsets[e + 1]
    cdef uint32_t c
    while p < end:
        c = rd(kind, data, i) if i < b else 0
        while i < b and skippable(c):
            i += 1
            c = rd(kind, data, i) if i < b else 0
        if i >= b or confusable(lower1(c)) != m.spoints[p]:
            return False
        i += 1
        p += 1
    return True


cdef Py_ssize_t structural(const model_t* m, int kind, const void* data, Py_ssize_t a,
                           Py_ssize_t b) noexcept nogil:
    """Index of the first structural entry that matches data[a:b], or -1. Line-start entries are
    tried after leading spaces, tabs, ``*``, ``>``, ``-``, backticks and quotes; the others anywhere
    (only where the folded character is one of their first characters)."""
    cdef Py_ssize_t start = a, e, i
    cdef uint32_t c
    while start < b:
        c = lower1(rd(kind, data, start))
        if not (skippable(c) or c == 0x2A or c == 0x3E or c == 0x2D or c == 0x60 or c == 0x22 or c == 0x27):
            break
        start += 1
    for e in range(m.n_struct):
        if not m.sanywhere[e] and struct_at(m, e, kind, data, start, b):
            return e
    for i in range(a, b):
        c = lower1(rd(kind, data, i))
        if c < 128 and (m.first_mask[c >> 6] >> (c & 63)) & 1:
            for e in range(m.n_struct):
                if m.sanywhere[e] and m.spoints[m.soffsets[e]] == c and struct_at(m, e, kind, data, i, b):
                    return e
    return -1


cdef inline bint boundary(uint32_t c) noexcept nogil:
    return (c == 0x0A or c == 0x0D or c == 0x0B or c == 0x0C or c == 0x1C or c == 0x1D or c == 0x1E
            or c == 0x85 or c == 0x2028 or c == 0x2029)


cdef struct pass_state:
    model_t model
    scratch_t scratch
    const void** data             # text t: kinds[t], data[t], lengths[t]
    int* kinds
    Py_ssize_t* lengths
    Py_ssize_t n_texts
    int64_t* out                  # rows of 4: text, segment, score, structural entry (-1: none);
                                  # (text, -1, 0, -1): the text holds Tag characters
    Py_ssize_t n_out
    Py_ssize_t cap_out
    int64_t threshold
    bint all_scores               # 1: record every scored segment (tools, tests)
    int status


cdef bint append(pass_state* st, int64_t t, int64_t seg, int64_t sc, int64_t e) noexcept nogil:
    cdef int64_t* grown
    if st.n_out == st.cap_out:
        grown = <int64_t*>realloc(st.out, 8 * 4 * (2 * st.cap_out + 16))
        if grown == NULL:
            return False
        st.out = grown
        st.cap_out = 2 * st.cap_out + 16
    st.out[4 * st.n_out] = t
    st.out[4 * st.n_out + 1] = seg
    st.out[4 * st.n_out + 2] = sc
    st.out[4 * st.n_out + 3] = e
    st.n_out += 1
    return True


cdef int run_state(void* p) noexcept nogil:
    cdef pass_state* st = <pass_state*>p
    cdef Py_ssize_t t, i, b, seg_start, seg_no, e
    cdef int64_t sc = 0
    cdef bint scored
    cdef int kind
    cdef const void* d
    st.n_out = 0
    for t in range(st.n_texts):
        kind = st.kinds[t]
        d = st.data[t]
        b = st.lengths[t]
        seg_start = 0
        seg_no = 0
        i = 0
        while i <= b:
            if i == b or boundary(rd(kind, d, i)):
                scored = score_segment(&st.model, &st.scratch, kind, d, seg_start, i, &sc)
                e = structural(&st.model, kind, d, seg_start, i)
                if e >= 0 or (scored and (st.all_scores or sc >= st.threshold)):
                    if not append(st, t, seg_no, sc if scored else -(1 << 62), e):
                        st.status = CKN_ENOMEM
                        return CKN_ENOMEM
                if i + 1 < b and rd(kind, d, i) == 0x0D and rd(kind, d, i + 1) == 0x0A:
                    i += 1
                seg_no += 1
                seg_start = i + 1
            i += 1
        if st.scratch.saw_tag:
            st.scratch.saw_tag = False
            if not append(st, t, -1, 0, -1):
                st.status = CKN_ENOMEM
                return CKN_ENOMEM
    st.status = CKN_OK
    return CKN_OK


cdef class Model:
    """The weights and trie as flat buffers (built once by ``ckn.sanitizer`` from the weights file)."""
    cdef readonly object weights, tkeys, tvals, end_concept, end_whole, root, level2, spoints, soffsets
    cdef readonly object sanywhere
    cdef readonly int k
    cdef readonly long long threshold

    def __init__(self, int k, long long threshold, weights, tkeys, tvals, end_concept, end_whole,
                 root, level2, spoints, soffsets, sanywhere):
        self.k, self.threshold = k, threshold
        self.weights, self.tkeys, self.tvals = weights, tkeys, tvals
        self.end_concept, self.end_whole = end_concept, end_whole
        self.root, self.level2 = root, level2
        self.spoints, self.soffsets, self.sanywhere = spoints, soffsets, sanywhere


cdef class SanitizePass:
    """Prepared scan of a list of str (a ``ckn._passes`` pass); ``finish()`` gives the flagged
    segments as ``(text, segment, score, structural entry or -1)`` rows (score ``-2**62``: not
    scored), and ``(text, -1, 0, -1)`` for each text holding Tag characters."""
    cdef pass_state st
    cdef ckn_pass p
    cdef object keep
    cdef int32_t[::1] w
    cdef uint64_t[::1] tk
    cdef int32_t[::1] tv
    cdef int32_t[::1] ec
    cdef uint8_t[::1] ew
    cdef int32_t[::1] r1
    cdef int32_t[::1] r2
    cdef uint32_t[::1] sp
    cdef int64_t[::1] so
    cdef uint8_t[::1] sa

    def __cinit__(self, Model model, list texts, bint all_scores=False):
        cdef Py_ssize_t n = len(texts), t, longest = 1, e
        cdef object text
        self.keep = (model, list(texts))
        self.w, self.tk, self.tv = model.weights, model.tkeys, model.tvals
        self.ec, self.ew = model.end_concept, model.end_whole
        self.r1, self.r2 = model.root, model.level2
        self.sp, self.so, self.sa = model.spoints, model.soffsets, model.sanywhere
        st = &self.st
        st.data = <const void**>malloc(sizeof(void*) * (n + 1))
        st.kinds = <int*>malloc(sizeof(int) * (n + 1))
        st.lengths = <Py_ssize_t*>malloc(sizeof(Py_ssize_t) * (n + 1))
        if not (st.data and st.kinds and st.lengths):
            raise MemoryError()
        for t, text in enumerate(self.keep[1]):
            if type(text) is not str:
                raise TypeError(f"texts[{t}]: expected str, got {type(text).__name__}")
            st.data[t] = PyUnicode_DATA(text)
            st.kinds[t] = PyUnicode_KIND(text)
            st.lengths[t] = PyUnicode_GET_LENGTH(text)
            longest = max(longest, st.lengths[t])
        st.n_texts = n
        st.model.k = model.k
        st.model.weights = &self.w[0]
        st.model.n_weights = self.w.shape[0]
        st.model.tkeys = &self.tk[0]
        st.model.tvals = &self.tv[0]
        st.model.tmask = self.tk.shape[0] - 1
        st.model.end_concept = &self.ec[0]
        st.model.end_whole = &self.ew[0]
        st.model.root = &self.r1[0]
        st.model.level2 = &self.r2[0]
        st.model.spoints = &self.sp[0]
        st.model.soffsets = &self.so[0]
        st.model.sanywhere = &self.sa[0]
        st.model.n_struct = self.sa.shape[0]
        st.model.first_mask[0] = 0
        st.model.first_mask[1] = 0
        for e in range(st.model.n_struct):
            if self.sa[e] and self.sp[self.so[e]] < 128:
                st.model.first_mask[self.sp[self.so[e]] >> 6] |= (<uint64_t>1) << (self.sp[self.so[e]] & 63)
        st.threshold = model.threshold
        st.all_scores = all_scores
        st.status = -1
        sc = &st.scratch
        sc.cap = longest
        sc.raw = <uint32_t*>malloc(4 * (3 * longest + 8))
        sc.chars = <uint32_t*>malloc(4 * (3 * longest + 8))
        sc.flags = <uint8_t*>malloc(3 * longest + 8)
        sc.chain = <uint8_t*>malloc(3 * longest + 8)
        sc.stamp = <int32_t*>calloc(self.w.shape[0], 4)
        sc.feats = <int32_t*>malloc(4 * (6 * longest + 32 + MAX_HITS * (4 + PAIR_WINDOW)))
        sc.line_id = 0
        sc.saw_tag = False
        if not (sc.raw and sc.chars and sc.flags and sc.chain and sc.stamp and sc.feats):
            raise MemoryError()
        self.p.run = run_state
        self.p.state = <void*>st

    def __dealloc__(self):
        free(self.st.data)
        free(self.st.kinds)
        free(self.st.lengths)
        free(self.st.scratch.raw)
        free(self.st.scratch.chars)
        free(self.st.scratch.flags)
        free(self.st.scratch.chain)
        free(self.st.scratch.stamp)
        free(self.st.scratch.feats)
        free(self.st.out)

    def _pass(self):
        return pass_capsule(&self.p)

    def run(self, bint release=True):
        run_pass(&self.p, release)

    def finish(self) -> list:
        if self.st.status == CKN_ENOMEM:
            raise MemoryError()
        if self.st.status != CKN_OK:
            raise RuntimeError("SanitizePass.finish: the pass has not run")
        return [(self.st.out[4 * i], self.st.out[4 * i + 1], self.st.out[4 * i + 2], self.st.out[4 * i + 3])
                for i in range(self.st.n_out)]
