"""Compiled line scorer of the sanitizer (see ``tools/sanitizer_reference.py`` for the same steps in Python).

``SanitizePass(model, texts)`` reads the texts' own buffers (PyUnicode kinds 1, 2 and 4) and,
without the GIL, cuts each into segments at every line boundary, folds each code point through
the weights file's fold table (NFKC, casefold, accents, invisible and Tag characters,
look-alikes), checks the structural table, finds the lexicon's concepts with a trie, and for a
segment with at least two concepts sums int32 feature weights (:func:`features`).
O(total length); per segment linear in its length (at most 64 concept hits, pairs within 6).
"""
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_KIND
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t, uint8_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset

from array import array

from ckn._passes cimport ckn_pass, pass_capsule, run_pass
from ckn.typedefs cimport CKN_ENOMEM, CKN_OK

cdef extern from "Python.h":
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    bint PyUnicode_IS_ASCII(object o)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)

cdef enum:
    MIN_HITS = 2
    MAX_HITS = 64
    PAIR_WINDOW = 6
    N_SHAPE = 18
    WORD_BITS = 15
    MAX_FOLD = 31                  # longest run one code point folds to (checked on load)
    PAGES = 0x1100                 # fold table pages of 256 code points
    # ASCII classes (table ``ascii_class``)
    C_WORD = 1
    C_SENT = 2
    C_QUOTE = 4
    C_CODE = 8
    C_LATIN = 16                   # a-z (after folding)
    C_LEET = 32                    # 0 1 3 4 5 7 @ $
    C_SKIP = 64                    # skipped before a line-start structural entry


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
    const int32_t* fold_page       # code point >> 8 -> block, or -1 (no code point of it folds)
    const int32_t* fold_block      # block * 256 + (c & 255) -> pool offset << 5 | length, or -1
    const uint32_t* fold_pool
    uint8_t ascii_fold[128]
    uint8_t ascii_class[128]
    uint8_t ascii_leet[128]        # the letter a leet character reads as next to a letter, or 0


cdef struct shape_t:
    Py_ssize_t n_words
    Py_ssize_t code                # code characters = ( ) { } [ ] ; < > _ | \ / #
    Py_ssize_t pipes
    bint colon_end
    bint question
    bint quote


cdef struct scratch_t:
    uint32_t* raw                  # folded code points of the segment
    uint32_t* chars                # its word characters, concatenated
    uint8_t* flags
    uint8_t* chain
    int32_t* stamp
    int32_t* feats
    Py_ssize_t cap                 # room of raw, chars, flags, chain (code points)
    int32_t line_id
    bint saw_tag                   # a Tag character (U+E0000..U+E007F) was folded


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


cdef inline uint32_t leet(uint32_t c) noexcept nogil:
    if c == 0x30: return 0x6F
    if c == 0x31: return 0x69
    if c == 0x33: return 0x65
    if c == 0x34 or c == 0x40: return 0x61
    if c == 0x35 or c == 0x24: return 0x73
    if c == 0x37: return 0x74
    return 0


cdef inline bint boundary(uint32_t c) noexcept nogil:
    return (c == 0x0A or c == 0x0D or c == 0x0B or c == 0x0C or c == 0x1C or c == 0x1D or c == 0x1E
            or c == 0x85 or c == 0x2028 or c == 0x2029)


cdef inline uint32_t rd(int kind, const void* d, Py_ssize_t i) noexcept nogil:
    if kind == 1:
        return (<const uint8_t*>d)[i]
    if kind == 2:
        return (<const uint16_t*>d)[i]
    return (<const uint32_t*>d)[i]


cdef inline int fold_cp(const model_t* m, uint32_t c, uint32_t* out) noexcept nogil:
    """The folded code points of ``c`` (0 to MAX_FOLD of them) into ``out``; their number."""
    cdef int32_t page, v
    cdef int n
    if c < 0x80:
        out[0] = m.ascii_fold[c]
        return 1
    page = m.fold_page[c >> 8] if c < 0x110000 else -1
    v = m.fold_block[(page << 8) | (c & 0xFF)] if page >= 0 else -1
    if v < 0:
        out[0] = c
        return 1
    for n in range(v & 31):
        out[n] = m.fold_pool[(v >> 5) + n]
    return v & 31


cdef bint reserve(scratch_t* s, Py_ssize_t need) noexcept nogil:
    """Room for ``need`` folded code points in every per-character buffer; False: out of memory."""
    cdef Py_ssize_t cap = s.cap
    cdef void* p
    if need <= cap:
        return True
    while cap < need:
        cap = 2 * cap + MAX_FOLD
    p = realloc(s.raw, 4 * (cap + 8))
    if p == NULL:
        return False
    s.raw = <uint32_t*>p
    p = realloc(s.chars, 4 * (cap + 8))
    if p == NULL:
        return False
    s.chars = <uint32_t*>p
    p = realloc(s.flags, cap + 8)
    if p == NULL:
        return False
    s.flags = <uint8_t*>p
    p = realloc(s.chain, cap + 8)
    if p == NULL:
        return False
    s.chain = <uint8_t*>p
    p = realloc(s.feats, 4 * (2 * cap + 64 + MAX_HITS * (4 + PAIR_WINDOW)))
    if p == NULL:
        return False
    s.feats = <int32_t*>p
    s.cap = cap
    return True


cdef Py_ssize_t fold_segment(const model_t* m, scratch_t* s, int kind, const void* data, bint ascii,
                             Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """data[a:b] folded into ``s.raw``; the number of code points, or -1 when out of memory."""
    cdef Py_ssize_t i, nr = 0
    cdef const uint8_t* d8
    cdef uint32_t c
    if ascii:
        if not reserve(s, b - a):
            return -1
        d8 = <const uint8_t*>data
        for i in range(a, b):
            s.raw[i - a] = m.ascii_fold[d8[i]]
        return b - a
    for i in range(a, b):
        if nr + MAX_FOLD > s.cap and not reserve(s, nr + MAX_FOLD):
            return -1
        c = rd(kind, data, i)
        if 0xE0000 <= c <= 0xE007F:
            s.saw_tag = True
        nr += fold_cp(m, c, s.raw + nr)
    return nr


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


cdef Py_ssize_t stream(const model_t* m, scratch_t* s, Py_ssize_t nr, shape_t* sh) noexcept nogil:
    """Reference ``fold_points`` (leet) + ``stream``: the word characters of ``s.raw[:nr]`` into
    ``s.chars`` with their flags, and the shape counts into ``sh``; the number of characters."""
    cdef Py_ssize_t i, nc = 0
    cdef uint32_t c, l, last_nonspace = 0
    cdef uint8_t f, cls
    cdef bint w, prev_word = False, prev_wide = False, sep_sent = True, inq = False
    cdef bint initial_done = False
    cdef const uint32_t* raw = s.raw
    for i in range(nr):
        c = raw[i]
        if c < 0x80:
            cls = m.ascii_class[c]
            if cls & C_LEET and ((i > 0 and raw[i - 1] < 0x80 and m.ascii_class[raw[i - 1]] & C_LATIN)
                                 or (i + 1 < nr and raw[i + 1] < 0x80
                                     and m.ascii_class[raw[i + 1]] & C_LATIN)):
                c = m.ascii_leet[c]
                cls = m.ascii_class[c]
            w = False
            if cls & C_WORD:
                if not prev_word or prev_wide:
                    f = 1
                    if sep_sent:
                        f |= 4
                    if not initial_done and not (0x30 <= c <= 0x39):
                        f |= 16
                        initial_done = True
                    if nc > 0 and prev_wide:
                        s.flags[nc - 1] |= 2
                    sh.n_words += 1
                    sep_sent = False
                else:
                    f = 0
                if inq:
                    f |= 8
                s.chars[nc] = c
                s.flags[nc] = f
                nc += 1
                prev_word = True
                prev_wide = False
            else:
                if prev_word and nc > 0:
                    s.flags[nc - 1] |= 2
                prev_word = False
                prev_wide = False
                if cls:
                    if cls & C_SENT:
                        sep_sent = True
                    if cls & C_QUOTE:
                        sh.quote = True
                        if c == 0x22:
                            inq = not inq
                    if c == 0x3F:
                        sh.question = True
                    if cls & C_CODE:
                        sh.code += 1
                        if c == 0x7C:
                            sh.pipes += 1
            if c != 0x20 and c != 0x09:
                last_nonspace = c
            continue
        if word_char(c):
            w = wide(c)
            if not prev_word or w or prev_wide:
                f = 1
                if sep_sent:
                    f |= 4
                if not initial_done:
                    f |= 16
                    initial_done = True
                if nc > 0 and (w or prev_wide):
                    s.flags[nc - 1] |= 2
                sh.n_words += 1
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
                sh.quote = True
            if c == 0x201C or c == 0x201D:
                inq = not inq
            elif c == 0x201E or c == 0xAB or c == 0x300C or c == 0x300E:
                inq = True
            elif c == 0xBB or c == 0x300D or c == 0x300F:
                inq = False
        last_nonspace = c
    if nc > 0:
        s.flags[nc - 1] |= 2
    sh.colon_end = last_nonspace == 0x3A
    return nc


cdef Py_ssize_t concept_hits(const model_t* m, scratch_t* s, Py_ssize_t nc, int32_t* hc,
                             uint8_t* hf) noexcept nogil:
    """Reference ``hits``: the concept of each lexicon match in ``s.chars[:nc]`` into ``hc`` and
    the flags of its start into ``hf`` (32: a chained start), at most MAX_HITS; their number."""
    cdef Py_ssize_t i, j, nh = 0
    cdef int32_t node, con
    cdef uint32_t c
    cdef bint ok
    cdef const uint32_t* chars = s.chars
    cdef const uint8_t* flags = s.flags
    memset(s.chain, 0, nc + 3)
    for i in range(nc):
        if not (flags[i] & 1 or s.chain[i]):
            continue
        c = chars[i]
        if c < 128:
            node = m.root[c]
            if node < 0:
                continue
            if i + 1 < nc and chars[i + 1] < 128:
                # two ASCII letters: one table look-up (most words stop here)
                con = m.end_concept[node]
                if con >= 0 and flags[i] & 1 and (m.end_whole[node] == 0 or flags[i] & 2):
                    hc[nh] = con
                    hf[nh] = flags[i]
                    nh += 1
                    s.chain[i + 1] = 1
                    s.chain[i + 2] = 1
                    s.chain[i + 3] = 1
                    if nh == MAX_HITS:
                        break
                node = m.level2[c * 128 + chars[i + 1]]
                if node < 0:
                    continue
                j = i + 1
            else:
                j = i
        else:
            node = trie_next(m, 0, c)
            if node < 0:
                continue
            j = i
        while True:
            con = m.end_concept[node]
            if con >= 0:
                if flags[i] & 1:
                    ok = m.end_whole[node] == 0 or (flags[j] & 2) != 0
                else:
                    ok = j - i >= 2
                if ok:
                    hc[nh] = con
                    hf[nh] = flags[i] if flags[i] & 1 else 32 | (flags[i] & 8)
                    nh += 1
                    s.chain[j + 1] = 1
                    s.chain[j + 2] = 1
                    s.chain[j + 3] = 1
                    if nh == MAX_HITS:
                        return nh
            j += 1
            if j >= nc:
                break
            node = trie_next(m, node, chars[j])
            if node < 0:
                break
        if nh == MAX_HITS:
            break
    return nh


cdef int64_t features(const model_t* m, scratch_t* s, Py_ssize_t nc, const int32_t* hc,
                      const uint8_t* hf, Py_ssize_t nh, const shape_t* sh) noexcept nogil:
    """Reference ``features`` of a segment with at least MIN_HITS concept hits: the sum of the
    weights of its distinct active features (the concept blocks, pairs, shape buckets, hashed
    words and word pairs of ``s.chars[:nc]``)."""
    cdef int32_t used[MAX_HITS]
    cdef Py_ssize_t i, j, nu = 0, chained = 0
    cdef int32_t k = m.k, nf = 0, base
    cdef uint32_t hsh, prev = 0
    cdef int64_t total = 0
    s.line_id += 1
    add(s, &nf, 0)
    for i in range(nh):
        chained += (hf[i] & 32) != 0
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
    add(s, &nf, base + <int32_t>bucket(sh.n_words, 3, 6, 11, 21, 41))
    add(s, &nf, base + 6 + <int32_t>bucket(nh, 1, 2, 3, 5, 9))
    if sh.colon_end:
        add(s, &nf, base + 12)
    if sh.question:
        add(s, &nf, base + 13)
    if sh.quote:
        add(s, &nf, base + 14)
    if sh.code >= 4:
        add(s, &nf, base + 15)
    if sh.pipes >= 2:
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
    return total


cdef bint score_segment(const model_t* m, scratch_t* s, Py_ssize_t nr, int64_t* score) noexcept nogil:
    """Score of the folded segment ``s.raw[:nr]`` into ``score``; False (not scored) when it has
    fewer than MIN_HITS concept hits."""
    cdef shape_t sh
    cdef int32_t hc[MAX_HITS]
    cdef uint8_t hf[MAX_HITS]
    cdef Py_ssize_t nc, nh
    memset(&sh, 0, sizeof(shape_t))
    nc = stream(m, s, nr, &sh)
    if sh.n_words == 0:
        return False
    nh = concept_hits(m, s, nc, hc, hf)
    if nh < MIN_HITS:
        return False
    score[0] = features(m, s, nc, hc, hf, nh, &sh)
    return True


cdef bint struct_at(const model_t* m, Py_ssize_t e, const uint32_t* raw, Py_ssize_t i,
                    Py_ssize_t nr) noexcept nogil:
    """Whether structural entry e matches the folded ``raw[i:nr]`` (spaces and tabs skipped)."""
    cdef Py_ssize_t p = m.soffsets[e], end = m.soffsets[e + 1]
    while p < end:
        while i < nr and (raw[i] == 0x20 or raw[i] == 0x09):
            i += 1
        if i >= nr or raw[i] != m.spoints[p]:
            return False
        i += 1
        p += 1
    return True


cdef Py_ssize_t structural(const model_t* m, const uint32_t* raw, Py_ssize_t nr) noexcept nogil:
    """Index of the first structural entry that matches the folded segment ``raw[:nr]``, or -1.
    Line-start entries are tried after leading spaces, tabs, ``*``, ``>``, ``-``, backticks and
    quotes; the others anywhere (only where the character is one of their first characters)."""
    cdef Py_ssize_t start = 0, e, i
    cdef uint32_t c
    while start < nr and raw[start] < 0x80 and m.ascii_class[raw[start]] & C_SKIP:
        start += 1
    if start < nr:
        for e in range(m.n_struct):
            if not m.sanywhere[e] and m.spoints[m.soffsets[e]] == raw[start] and struct_at(m, e, raw, start, nr):
                return e
    for i in range(nr):
        c = raw[i]
        if c < 128 and (m.first_mask[c >> 6] >> (c & 63)) & 1:
            for e in range(m.n_struct):
                if m.sanywhere[e] and m.spoints[m.soffsets[e]] == c and struct_at(m, e, raw, i, nr):
                    return e
    return -1


cdef struct pass_state:
    model_t model
    scratch_t scratch
    const void** data             # text t: kinds[t], data[t], lengths[t], ascii[t]
    int* kinds
    Py_ssize_t* lengths
    uint8_t* ascii
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


cdef Py_ssize_t next_boundary(int kind, const void* d, Py_ssize_t i, Py_ssize_t b) noexcept nogil:
    """Position of the first line boundary in d[i:b], or b."""
    cdef const uint8_t* d8
    cdef uint8_t c
    if kind == 1:
        d8 = <const uint8_t*>d
        while i < b:
            c = d8[i]
            if c <= 0x1E and (c == 0x0A or c == 0x0D or c == 0x0B or c == 0x0C or c >= 0x1C) or c == 0x85:
                return i
            i += 1
        return b
    while i < b and not boundary(rd(kind, d, i)):
        i += 1
    return i


cdef int run_state(void* p) noexcept nogil:
    cdef pass_state* st = <pass_state*>p
    cdef Py_ssize_t t, i, b, seg_start, seg_no, e, nr
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
        while True:
            i = next_boundary(kind, d, seg_start, b)
            nr = fold_segment(&st.model, &st.scratch, kind, d, st.ascii[t], seg_start, i)
            if nr < 0:
                st.status = CKN_ENOMEM
                return CKN_ENOMEM
            e = structural(&st.model, st.scratch.raw, nr)
            scored = score_segment(&st.model, &st.scratch, nr, &sc)
            if e >= 0 or (scored and (st.all_scores or sc >= st.threshold)):
                if not append(st, t, seg_no, sc if scored else -(1 << 62), e):
                    st.status = CKN_ENOMEM
                    return CKN_ENOMEM
            if i >= b:
                break
            if i + 1 < b and rd(kind, d, i) == 0x0D and rd(kind, d, i + 1) == 0x0A:
                i += 1
            seg_no += 1
            seg_start = i + 1
        if st.scratch.saw_tag:
            st.scratch.saw_tag = False
            if not append(st, t, -1, 0, -1):
                st.status = CKN_ENOMEM
                return CKN_ENOMEM
    st.status = CKN_OK
    return CKN_OK


cdef class Model:
    """The weights, trie and fold table as flat buffers (built once by ``ckn.sanitizer`` from
    the weights file, which it validates)."""
    cdef readonly object weights, tkeys, tvals, end_concept, end_whole, root, level2, spoints, soffsets
    cdef readonly object sanywhere, fold_page, fold_block, fold_pool
    cdef readonly int k
    cdef readonly long long threshold

    def __init__(self, int k, long long threshold, weights, tkeys, tvals, end_concept, end_whole,
                 root, level2, spoints, soffsets, sanywhere, fold_keys, fold_offsets, fold_pool):
        cdef const uint32_t[::1] keys = fold_keys
        cdef const uint32_t[::1] offs = fold_offsets
        cdef int32_t[::1] page
        cdef int32_t[::1] block
        cdef Py_ssize_t j, n_blocks = 0
        cdef uint32_t c
        self.k, self.threshold = k, threshold
        self.weights, self.tkeys, self.tvals = weights, tkeys, tvals
        self.end_concept, self.end_whole = end_concept, end_whole
        self.root, self.level2 = root, level2
        self.spoints, self.soffsets, self.sanywhere = spoints, soffsets, sanywhere
        self.fold_page = array("i", [-1]) * PAGES
        page = self.fold_page
        page[0] = 0                   # block 0 always exists (the ASCII look-up reads it)
        n_blocks = 1
        for j in range(keys.shape[0]):
            if page[keys[j] >> 8] < 0:
                page[keys[j] >> 8] = n_blocks
                n_blocks += 1
        self.fold_block = array("i", [-1]) * (256 * n_blocks)
        block = self.fold_block
        for j in range(keys.shape[0]):
            c = keys[j]
            block[(page[c >> 8] << 8) | (c & 0xFF)] = <int32_t>((offs[j] << 5) | (offs[j + 1] - offs[j]))
        self.fold_pool = fold_pool

    def fold(self, str text) -> str:
        """``text`` folded code point by code point (the table only: no leet, no boundaries cut)."""
        cdef model_t m
        cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(text), nr = 0
        cdef int kind = PyUnicode_KIND(text)
        cdef const void* d = PyUnicode_DATA(text)
        cdef const int32_t[::1] page = self.fold_page
        cdef const int32_t[::1] block = self.fold_block
        cdef const uint32_t[::1] pool = self.fold_pool
        cdef uint32_t* out = <uint32_t*>malloc(4 * (MAX_FOLD * n + 1))
        if out == NULL:
            raise MemoryError()
        m.fold_page, m.fold_block, m.fold_pool = &page[0], &block[0], &pool[0]
        for i in range(128):
            m.ascii_fold[i] = pool[block[i] >> 5] if block[i] >= 0 else i
        for i in range(n):
            nr += fold_cp(&m, rd(kind, d, i), out + nr)
        try:
            return PyUnicode_FromKindAndData(4, out, nr)
        finally:
            free(out)


cdef class SanitizePass:
    """Prepared scan of a list of str (a ``ckn._passes`` pass); ``finish()`` gives the flagged
    segments as ``(text, segment, score, structural entry or -1)`` rows (score ``-2**62``: not
    scored), and ``(text, -1, 0, -1)`` for each text holding Tag characters."""
    cdef pass_state st
    cdef ckn_pass p
    cdef object keep
    cdef const int32_t[::1] w
    cdef const uint64_t[::1] tk
    cdef const int32_t[::1] tv
    cdef const int32_t[::1] ec
    cdef const uint8_t[::1] ew
    cdef const int32_t[::1] r1
    cdef const int32_t[::1] r2
    cdef const uint32_t[::1] sp
    cdef const int64_t[::1] so
    cdef const uint8_t[::1] sa
    cdef const int32_t[::1] fp
    cdef const int32_t[::1] fb
    cdef const uint32_t[::1] fo

    def __cinit__(self, Model model, list texts, bint all_scores=False):
        cdef Py_ssize_t n = len(texts), t, longest = 1, e, c
        cdef object text
        cdef model_t* m
        cdef uint32_t first
        self.keep = (model, list(texts))
        self.w, self.tk, self.tv = model.weights, model.tkeys, model.tvals
        self.ec, self.ew = model.end_concept, model.end_whole
        self.r1, self.r2 = model.root, model.level2
        self.sp, self.so, self.sa = model.spoints, model.soffsets, model.sanywhere
        self.fp, self.fb, self.fo = model.fold_page, model.fold_block, model.fold_pool
        st = &self.st
        st.data = <const void**>malloc(sizeof(void*) * (n + 1))
        st.kinds = <int*>malloc(sizeof(int) * (n + 1))
        st.lengths = <Py_ssize_t*>malloc(sizeof(Py_ssize_t) * (n + 1))
        st.ascii = <uint8_t*>malloc(n + 1)
        if not (st.data and st.kinds and st.lengths and st.ascii):
            raise MemoryError()
        for t, text in enumerate(self.keep[1]):
            if type(text) is not str:
                raise TypeError(f"texts[{t}]: expected str, got {type(text).__name__}")
            st.data[t] = PyUnicode_DATA(text)
            st.kinds[t] = PyUnicode_KIND(text)
            st.lengths[t] = PyUnicode_GET_LENGTH(text)
            st.ascii[t] = PyUnicode_IS_ASCII(text)
            longest = max(longest, st.lengths[t])
        st.n_texts = n
        m = &st.model
        m.k = model.k
        m.weights = &self.w[0]
        m.n_weights = self.w.shape[0]
        m.tkeys = &self.tk[0]
        m.tvals = &self.tv[0]
        m.tmask = self.tk.shape[0] - 1
        m.end_concept = &self.ec[0]
        m.end_whole = &self.ew[0]
        m.root = &self.r1[0]
        m.level2 = &self.r2[0]
        m.spoints = &self.sp[0]
        m.soffsets = &self.so[0]
        m.sanywhere = &self.sa[0]
        m.n_struct = self.sa.shape[0]
        m.fold_page = &self.fp[0]
        m.fold_block = &self.fb[0]
        m.fold_pool = &self.fo[0]
        m.first_mask[0] = 0
        m.first_mask[1] = 0
        for e in range(m.n_struct):
            first = self.sp[self.so[e]]
            if self.sa[e] and first < 128:
                m.first_mask[first >> 6] |= (<uint64_t>1) << (first & 63)
        for c in range(128):
            m.ascii_fold[c] = self.fo[self.fb[c] >> 5] if self.fb[c] >= 0 else c
        for c in range(128):
            first = m.ascii_fold[c]
            m.ascii_leet[c] = leet(first)
            m.ascii_class[c] = ((C_WORD if word_char(first) else 0) | (C_SENT if sent_char(first) else 0)
                                | (C_QUOTE if quote_char(first) else 0) | (C_CODE if code_char(first) else 0)
                                | (C_LATIN if 0x61 <= first <= 0x7A else 0)
                                | (C_LEET if m.ascii_leet[c] else 0)
                                | (C_SKIP if first in (0x20, 0x09, 0x2A, 0x3E, 0x2D, 0x60, 0x22, 0x27) else 0))
        st.threshold = model.threshold
        st.all_scores = all_scores
        st.status = -1
        sc = &st.scratch
        sc.cap = 0
        sc.stamp = <int32_t*>calloc(self.w.shape[0], 4)
        sc.line_id = 0
        sc.saw_tag = False
        if sc.stamp == NULL or not reserve(sc, min(longest, 1 << 16)):
            raise MemoryError()
        self.p.run = run_state
        self.p.state = <void*>st

    def __dealloc__(self):
        free(self.st.data)
        free(self.st.kinds)
        free(self.st.lengths)
        free(self.st.ascii)
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
