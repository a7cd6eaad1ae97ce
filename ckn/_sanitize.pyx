"""Compiled line scorer of the sanitizer (see ``tools/sanitizer_reference.py`` for the same steps in Python).

``SanitizePass(model, texts)`` reads the texts' own buffers (PyUnicode kinds 1, 2 and 4) and,
without the GIL, cuts each into segments at every line boundary and, per segment: folds each code
point through the weights file's fold table (an ASCII text is read in place through a 128-entry
table), streams the word characters while checking the structural table, finds the lexicon's
concepts with a trie (a dense table for the letters a-z, a hash for the rest), and for a segment
with at least two concepts sums int16 feature weights (:func:`features`); a segment without a
structural entry is looked up in the memory of known attacks (:func:`known`). Text encoded in a
segment (base64, binary octets) is decoded and judged the same way (:func:`payloads`).
O(total length); per segment linear in its length (at most 64 concept hits, pairs within 6).
"""
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_KIND
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t, uint8_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from ckn._passes cimport ckn_pass, pass_capsule, run_pass
from ckn.typedefs cimport CKN_ENOMEM, CKN_OK

from array import array

cdef extern from "Python.h":
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    bint PyUnicode_IS_ASCII(object o)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)

cdef enum:
    MIN_HITS = 2
    MAX_HITS = 64
    PAIR_WINDOW = 6
    N_GAPS = 3                     # word distance of neighbouring concepts: 0, 1-2, 3+
    N_SHAPE = 18
    WORD_BITS = 18
    MAX_FOLD = 31                  # longest run one code point folds to (checked on load)
    PAGES = 0x1100                 # fold table pages of 256 code points
    N_CLASS = 0x10000              # code points below this have their class and fold in tables
    NO_ONE = 0x7FFFFFFF            # fold_one: the code point folds to none or to several
    WHERE_START = 0                # a structural entry's place: the line start,
    WHERE_ANY = 1                  # ... anywhere in the line,
    WHERE_HEADING = 2              # ... the line start, and it ends the heading
    NO_ENTRY = -1                  # a segment's entry: no structural hit
    HIDDEN_TEXT = -2               # ... the segment spells text in Tag characters (no table entry)
    KNOWN_ATTACK = -3              # ... the segment is in the memory of known attacks (:func:`known`)
    MEMORY_SPAN = 7                # a segment of fewer words is one memory key; a longer one is cut
    SHINGLE = 3                    # into runs of SHINGLE or more words, a key each,
    KEY_CHARS = 12                 # ... each holding KEY_CHARS characters or more
    MIN_BASE64 = 16                # base64 characters in a run that is decoded (:func:`payloads`)
    MIN_OCTETS = 4                 # groups of eight binary digits in a run that is decoded
    # character classes (of the folded code point)
    C_WORD = 1
    C_WIDE = 2                     # its own word (CJK, kana, Hangul, Thai, …)
    C_SENT = 4                     # sentence punctuation
    C_QUOTE = 8
    C_CODE = 16                    # = ( ) { } [ ] ; < > _ | \ / #
    C_LATIN = 32                   # a-z
    C_LEET = 64                    # 0 1 3 4 5 7 @ $
    C_SKIP = 128                   # skipped before a line-start structural entry
    C_ANY = 256                    # first character of an "anywhere" structural entry
    C_STEM = 512                   # first character of a lexicon stem
    C_BASE64 = 1024                # a-z 0-9 + / (a base64 character, folded)
    F_STEM = 64                    # stream flag: a word start whose character may begin a stem

cdef uint64_t FNV64_BASIS = 0xCBF29CE484222325ULL   # FNV-1a-64's offset basis (memory keys)

ctypedef fused unit_t:             # a str's code units (PyUnicode kinds 1, 2, 4)
    uint8_t
    uint16_t
    uint32_t

ctypedef fused src_t:
    uint8_t                        # an ASCII text, read in place (folded through ascii_fold)
    uint32_t                       # folded code points


cdef struct model_t:
    int32_t k
    const int16_t* weights
    Py_ssize_t n_weights
    const int32_t* dense           # node * 26 + letter - 'a' -> child << 8 | end_info[child], or -1
    const uint64_t* tkeys          # other edges: open addressing on node * 0x110000 + code point
    const int32_t* tvals
    uint64_t tmask
    const uint8_t* end_info        # 0, or concept + 1 (bit 7: the stem must end a word)
    const uint64_t* single         # node with one child: child << 40 | end_info[child] << 32 | its
                                   # code point; with none: 0xFFFFFFFE; with more: 0xFFFFFFFF
    const int32_t* tri             # node after three letters a-z ((c0 * 26 + c1) * 26 + c2), or -1
    const uint16_t* duo            # c0 * 26 + c1: end_info after c0 c1 << 8 | end_info after c0 (0: none)
    const uint8_t* in_stem         # c < 0x10000: bit c & 7 of byte c >> 3 (first: of first_of_stem)
    const uint8_t* first_of_stem   # (a code point outside these bitmaps goes to the hash)
    const uint32_t* spoints        # structural entries, concatenated
    const int64_t* soffsets        # entry e: spoints[soffsets[e]:soffsets[e + 1]]
    const uint8_t* swhere          # WHERE_START, WHERE_ANY or WHERE_HEADING
    Py_ssize_t n_struct
    const int32_t* fold_page       # code point >> 8 -> block, or -1 (no code point of it folds)
    const int32_t* fold_block      # block * 256 + (c & 255) -> pool offset << 5 | length, or -1
    const uint32_t* fold_pool
    const uint32_t* fold_one       # c < N_CLASS: the one code point c folds to, or NO_ONE (also
                                   # for line boundaries)
    const uint16_t* cls            # class of each code point below N_CLASS
    uint8_t ascii_fold[128]
    uint16_t ascii_cls[128]        # class of the folded ASCII code point
    uint8_t ascii_leet[128]        # the letter a leet character reads as among letters
    int8_t base64[128]             # the value of a base64 character (as written), or -1
    const uint64_t* memory         # keys of known attacks (odd), open addressing; 0: an empty slot
    uint64_t mmask


cdef struct shape_t:
    Py_ssize_t n_words
    Py_ssize_t code
    Py_ssize_t pipes
    bint colon_end
    bint question
    bint quote


cdef struct scratch_t:
    uint32_t* raw                  # folded code points of the segment (a text that is not ASCII)
    uint32_t* chars                # its word characters, concatenated
    int32_t* starts                # positions in chars of its word starts
    uint32_t* hashes               # FNV-1a-32 of each word's characters
    uint8_t* flags
    uint8_t* chain
    uint8_t* stamp                 # stamp[f] == line_id: feature f was counted on this line
    Py_ssize_t cap                 # room of raw, chars, flags, chain (code points)
    int32_t line_id
    bint saw_tag                   # a Tag character (U+E0000..U+E007F) was folded
    bint hidden                    # the segment holds hidden Tag text (:func:`hidden_tag`)
    bint shifted                   # a code point of the segment folded to none or several
    int encoded                    # the segment may hold a base64 run (bit 1), octets (bit 2)
    Py_ssize_t runs_from           # its runs of 16 or more a-z 0-9 + / lie in [runs_from, runs_to)
    Py_ssize_t runs_to
    uint8_t* payload               # a payload's code points, then (from byte 4 * payload_cap on)
    Py_ssize_t payload_cap         # its bytes: room for payload_cap of each


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
    """. ! ? ; : and the ends of markup } > (what follows starts a sentence), 。 । ॥ ؟ ۔"""
    return (c == 0x2E or c == 0x21 or c == 0x3F or c == 0x3B or c == 0x3A or c == 0x7D or c == 0x3E
            or c == 0x3002 or c == 0x964 or c == 0x965 or c == 0x61F or c == 0x6D4)


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


cdef uint16_t class_of(uint32_t c) noexcept nogil:
    """The class bits of a folded code point (C_ANY aside: it depends on the table)."""
    cdef uint16_t f = 0
    if word_char(c):
        f |= C_WORD | (C_WIDE if wide(c) else 0)
    if sent_char(c):
        f |= C_SENT
    if quote_char(c):
        f |= C_QUOTE
    if code_char(c):
        f |= C_CODE
    if 0x61 <= c <= 0x7A:
        f |= C_LATIN
    if 0x61 <= c <= 0x7A or 0x30 <= c <= 0x39 or c == 0x2B or c == 0x2F:
        f |= C_BASE64
    if leet(c):
        f |= C_LEET
    if c == 0x20 or c == 0x09 or c == 0x2A or c == 0x3E or c == 0x2D or c == 0x60 or c == 0x22 or c == 0x27:
        f |= C_SKIP
    return f


cdef inline uint16_t cls(const model_t* m, uint32_t c) noexcept nogil:
    return m.cls[c] if c < N_CLASS else class_of(c)


cdef inline bint boundary(uint32_t c) noexcept nogil:
    """\n \r VT FF FS GS RS NEL U+2028 U+2029."""
    if c > 0x85:
        return (c | 1) == 0x2029
    return c == 0x85 or (c <= 0x1E and (0x70003C00u >> c) & 1)


cdef inline bint hidden_tag(uint32_t c) noexcept nogil:
    """A Tag character no emoji flag sequence uses (those take only Tag digits, Tag a-z and
    CANCEL TAG): a Tag space, capital or punctuation mark spells text that shows nothing."""
    return 0xE0000 <= c <= 0xE007E and not (0xE0030 <= c <= 0xE0039 or 0xE0061 <= c <= 0xE007A)


cdef inline uint32_t rd(int kind, const void* d, Py_ssize_t i) noexcept nogil:
    if kind == 1:
        return (<const uint8_t*>d)[i]
    if kind == 2:
        return (<const uint16_t*>d)[i]
    return (<const uint32_t*>d)[i]


cdef inline uint32_t at(const model_t* m, const src_t* src, Py_ssize_t i) noexcept nogil:
    """The folded code point at ``i``."""
    if src_t is uint8_t:
        return m.ascii_fold[src[i]]
    else:
        return src[i]


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


cdef inline bint grow(void** buf, size_t size) noexcept nogil:
    """``*buf`` reallocated to ``size`` bytes; False (``*buf`` unchanged) when out of memory."""
    cdef void* p = realloc(buf[0], size)
    if p == NULL:
        return False
    buf[0] = p
    return True


cdef bint reserve(scratch_t* s, Py_ssize_t need) noexcept nogil:
    """Room for ``need`` folded code points in every per-character buffer; False: out of memory."""
    cdef Py_ssize_t cap = s.cap
    if need <= cap:
        return True
    while cap < need:
        cap = 2 * cap + MAX_FOLD
    if not (grow(<void**>&s.raw, 4 * (cap + 8)) and grow(<void**>&s.chars, 4 * (cap + 8))
            and grow(<void**>&s.starts, 4 * (cap + 8)) and grow(<void**>&s.hashes, 4 * (cap + 8))
            and grow(<void**>&s.flags, cap + 8) and grow(<void**>&s.chain, cap + 8)):
        return False
    s.cap = cap
    return True


cdef Py_ssize_t fold_segment(const model_t* m, scratch_t* s, const unit_t* data, Py_ssize_t a,
                             Py_ssize_t b, Py_ssize_t* end) noexcept nogil:
    """data[a:b] up to its first line boundary (whose position goes into ``end``; b: none) folded
    into ``s.raw``; the number of code points, or -1 when out of memory."""
    cdef Py_ssize_t i, nr = 0, room
    cdef int k
    cdef uint32_t c
    cdef uint32_t* raw
    cdef const uint32_t* one = m.fold_one
    if not reserve(s, min(b - a, 4096) + MAX_FOLD):
        return -1
    s.hidden = False
    s.shifted = False
    raw = s.raw
    room = s.cap - MAX_FOLD  # (room for one more fold)
    for i in range(a, b):
        if nr >= room:
            if not reserve(s, 2 * s.cap):
                return -1
            raw = s.raw
            room = s.cap - MAX_FOLD
        c = data[i]
        if c < N_CLASS and one[c] != NO_ONE:  # (never a boundary)
            raw[nr] = one[c]
            nr += 1
            continue
        if boundary(c):
            end[0] = i
            return nr
        if unit_t is uint32_t:
            if 0xE0000 <= c <= 0xE007F:
                s.saw_tag = True
                s.hidden |= hidden_tag(c)
        k = fold_cp(m, c, raw + nr)
        s.shifted |= k != 1
        nr += k
    end[0] = b
    return nr


cdef bint struct_at(const model_t* m, Py_ssize_t e, const src_t* src, Py_ssize_t i,
                    Py_ssize_t n) noexcept nogil:
    """Whether structural entry e matches the folded ``src[i:n]`` (spaces and tabs skipped). A
    WHERE_HEADING entry must also end the heading: after the rest of its last word only spaces
    and tabs, then the end or a character that is no letter or digit."""
    cdef Py_ssize_t p = m.soffsets[e], end = m.soffsets[e + 1]
    cdef uint32_t c
    while p < end:
        c = at(m, src, i) if i < n else 0
        while i < n and (c == 0x20 or c == 0x09):
            i += 1
            c = at(m, src, i) if i < n else 0
        if i >= n or c != m.spoints[p]:
            return False
        i += 1
        p += 1
    if m.swhere[e] != WHERE_HEADING:
        return True
    while i < n and word_char(at(m, src, i)):
        i += 1
    while i < n and (at(m, src, i) == 0x20 or at(m, src, i) == 0x09):
        i += 1
    return i >= n or not word_char(at(m, src, i))


cdef Py_ssize_t struct_start(const model_t* m, const src_t* src, Py_ssize_t n) noexcept nogil:
    """The first line-start structural entry matching ``src[:n]`` after leading spaces, tabs,
    ``*``, ``>``, ``-``, backticks and quotes, or -1."""
    cdef Py_ssize_t start = 0, e
    cdef uint32_t c
    while start < n:
        c = at(m, src, start)
        if not (c < 0x80 and m.cls[c] & C_SKIP):
            break
        start += 1
    if start < n:
        c = at(m, src, start)
        for e in range(m.n_struct):
            if m.swhere[e] != WHERE_ANY and m.spoints[m.soffsets[e]] == c and struct_at(m, e, src, start, n):
                return e
    return -1


cdef Py_ssize_t struct_any(const model_t* m, const src_t* src, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """The first "anywhere" structural entry matching at ``src[i:n]``, or -1."""
    cdef Py_ssize_t e
    cdef uint32_t c = at(m, src, i)
    for e in range(m.n_struct):
        if m.swhere[e] == WHERE_ANY and m.spoints[m.soffsets[e]] == c and struct_at(m, e, src, i, n):
            return e
    return -1


cdef Py_ssize_t leet_run(const model_t* m, const src_t* src, Py_ssize_t i, Py_ssize_t n,
                         bint* letters) noexcept nogil:
    """The end of the run of leet characters and letters a-z from ``src[i]`` (a leet character
    that no earlier run covered: only letters, if anything, precede it in its run); ``letters``:
    whether the run holds a letter, so that its leet characters read as letters."""
    cdef uint16_t f
    letters[0] = i > 0 and (cls(m, at(m, src, i - 1)) & C_LATIN) != 0
    while i < n:
        f = cls(m, at(m, src, i))
        if not f & (C_LEET | C_LATIN):
            break
        letters[0] |= (f & C_LATIN) != 0
        i += 1
    return i


cdef inline bint run_ends(scratch_t* s, Py_ssize_t i, Py_ssize_t run_end, bint encoded) noexcept nogil:
    """Position ``i`` ends the run of a-z 0-9 + / after ``run_end``: one of MIN_BASE64 or more is
    noted in ``s.runs_from:s.runs_to``. Whether such a run has been seen (``encoded``: before)."""
    if i - run_end <= MIN_BASE64:
        return encoded
    if not encoded:
        s.runs_from = run_end + 1
    s.runs_to = i
    return True


cdef Py_ssize_t stream(const model_t* m, scratch_t* s, const src_t* src, Py_ssize_t n, shape_t* sh,
                       Py_ssize_t* entry) noexcept nogil:
    """Reference ``fold_points`` (leet) + ``stream`` over the folded ``src[:n]``: its word
    characters into ``s.chars`` with their flags, the shape counts into ``sh``; and, where no
    entry is in ``entry`` yet, the first "anywhere" structural entry; the FNV-1a-32 of each word
    into ``s.hashes``; into ``s.encoded`` whether it may hold encoded text: a run of 16 or more
    a-z 0-9 + / (within ``s.runs_from:s.runs_to``; letters of other scripts may lengthen a run,
    so this is a superset) or 32 binary digits. The number of characters."""
    cdef Py_ssize_t i = 0, nc = 0, leet_end = 0, run_end = -1, n01 = 0
    cdef uint32_t c, c2, last_nonspace = 0, h = 0
    cdef uint16_t f, f2
    cdef uint8_t fl
    cdef bint prev_word = False, prev_wide = False, sep_sent = True, inq = False, initial_done = False
    cdef bint leet_on = False, encoded = False
    # (local copies: the byte stores below may alias the model's fields, so these stay in registers)
    cdef uint32_t* chars = s.chars
    cdef uint32_t* hashes = s.hashes
    cdef uint8_t* flags = s.flags
    cdef const uint16_t* classes = m.cls
    cdef const uint8_t* ascii_fold = m.ascii_fold
    cdef const uint16_t* ascii_cls = m.ascii_cls
    cdef Py_ssize_t n_words = 0
    while i < n:
        if src_t is uint8_t:
            c = ascii_fold[src[i]]
            f = ascii_cls[src[i]]
        else:
            c = src[i]
            f = classes[c] if c < N_CLASS else class_of(c)
        if f & C_ANY and entry[0] < 0:
            entry[0] = struct_any(m, src, i, n)
        if f & C_LEET:
            n01 += (c | 1) == 0x31
            if i >= leet_end:
                leet_end = leet_run(m, src, i, n, &leet_on)
            if leet_on:
                c = m.ascii_leet[c]
                f = classes[c]
        if f & C_WORD:
            if not prev_word or f & C_WIDE or prev_wide:
                fl = 1
                if sep_sent:
                    fl |= 4
                if not initial_done and not (0x30 <= c <= 0x39):
                    fl |= 16
                    initial_done = True
                if nc > 0 and (f & C_WIDE or prev_wide):
                    flags[nc - 1] |= 2
                if f & C_STEM or c >= N_CLASS:
                    fl |= F_STEM
                s.starts[n_words] = <int32_t>nc
                n_words += 1
                sep_sent = False
                h = 2166136261u
            else:
                fl = 0
            if inq:
                fl |= 8
            chars[nc] = c
            flags[nc] = fl
            nc += 1
            h = (h ^ c) * 16777619u
            prev_word = True
            prev_wide = (f & C_WIDE) != 0
            last_nonspace = c
            if not prev_wide:
                # the rest of a word of plain letters: no leet, no structural entry, not wide
                fl &= 8
                while i + 1 < n:
                    if src_t is uint8_t:
                        c2 = ascii_fold[src[i + 1]]
                        f2 = ascii_cls[src[i + 1]]
                    else:
                        c2 = src[i + 1]
                        f2 = classes[c2] if c2 < N_CLASS else class_of(c2)
                    if (f2 & (C_WORD | C_WIDE | C_LEET | C_ANY)) != C_WORD:
                        break
                    chars[nc] = c2
                    flags[nc] = fl
                    nc += 1
                    h = (h ^ c2) * 16777619u
                    i += 1
                    last_nonspace = c2
            elif src_t is uint32_t:
                # the rest of a run of wide characters: each its own word (none is base64)
                fl &= 8
                encoded = run_ends(s, i, run_end, encoded)
                while i + 1 < n:
                    c2 = src[i + 1]
                    f2 = classes[c2] if c2 < N_CLASS else class_of(c2)
                    if (f2 & (C_WORD | C_WIDE | C_LEET | C_ANY)) != C_WORD | C_WIDE:
                        break
                    hashes[n_words - 1] = h
                    flags[nc - 1] |= 2
                    s.starts[n_words] = <int32_t>nc
                    n_words += 1
                    chars[nc] = c2
                    flags[nc] = fl | 1 | (F_STEM if f2 & C_STEM or c2 >= N_CLASS else 0)
                    nc += 1
                    h = (2166136261u ^ c2) * 16777619u
                    i += 1
                    last_nonspace = c2
                run_end = i
            hashes[n_words - 1] = h
            i += 1
            continue
        else:
            if prev_word and nc > 0:
                flags[nc - 1] |= 2
            prev_word = False
            prev_wide = False
            if not f & C_BASE64:  # (word characters that are not base64 do not end a run: an excess)
                encoded = run_ends(s, i, run_end, encoded)
                run_end = i
            if f:
                if f & C_SENT:
                    sep_sent = True
                if f & C_QUOTE:
                    sh.quote = True
                if f & C_CODE:
                    sh.code += 1
                    if c == 0x7C:
                        sh.pipes += 1
            if c == 0x3F:
                sh.question = True
            elif c == 0x22 or c == 0x201C or c == 0x201D:
                inq = not inq
            elif c == 0x201E or c == 0xAB or c == 0x300C or c == 0x300E:
                inq = True
            elif c == 0xBB or c == 0x300D or c == 0x300F:
                inq = False
        if c != 0x20 and c != 0x09:
            last_nonspace = c
        i += 1
    if nc > 0:
        flags[nc - 1] |= 2
    encoded = run_ends(s, n, run_end, encoded)
    s.encoded = encoded | (n01 >= 8 * MIN_OCTETS) << 1
    sh.n_words = n_words
    sh.colon_end = last_nonspace == 0x3A
    return nc


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


cdef inline int32_t step(const model_t* m, const int32_t* dense, int32_t node, uint32_t c,
                         uint8_t* end) noexcept nogil:
    """The trie node after ``node`` and ``c`` (or -1), its end_info into ``end``."""
    cdef int32_t v
    cdef uint64_t info = m.single[node]
    if <uint32_t>info == c:
        end[0] = <uint8_t>(info >> 32)
        return <int32_t>(info >> 40)
    if <uint32_t>info != 0xFFFFFFFFu:
        return -1
    if 0x61 <= c <= 0x7A:
        v = dense[26 * node + (c - 0x61)]
        end[0] = <uint8_t>(v & 0xFF)
        return v >> 8 if v >= 0 else -1
    if c < 0x10000 and not ((m.first_of_stem if node == 0 else m.in_stem)[c >> 3] >> (c & 7)) & 1:
        return -1
    node = trie_next(m, node, c)
    end[0] = m.end_info[node] if node >= 0 else 0
    return node


cdef inline Py_ssize_t record(int32_t* hc, uint8_t* hf, int32_t* hw, uint8_t* chain, Py_ssize_t nh,
                              uint8_t end, uint8_t start, Py_ssize_t word, Py_ssize_t j, Py_ssize_t nc,
                              Py_ssize_t* chain_hi) noexcept nogil:
    """A match of stem end ``end`` at ``j`` from a start with flags ``start`` in word ``word``: its
    hit, and its chained starts j + 1 .. j + 3; the new number of hits."""
    hc[nh] = (end & 0x7F) - 1
    hw[nh] = <int32_t>word
    hf[nh] = (start & 31) if start & 1 else 32 | (start & 8)
    chain[j + 1] = 1
    chain[j + 2] = 1
    chain[j + 3] = 1
    chain_hi[0] = max(chain_hi[0], min(j + 3, nc - 1))
    return nh + 1


cdef Py_ssize_t concept_hits(const model_t* m, scratch_t* s, Py_ssize_t nc, Py_ssize_t n_words,
                             int32_t* hc, uint8_t* hf, int32_t* hw) noexcept nogil:
    """Reference ``hits``: the concept of each lexicon match in ``s.chars[:nc]`` into ``hc``, the
    flags of its start into ``hf`` (32: a chained start) and its word's index into ``hw``, at most
    MAX_HITS; their number.
    Three letters a-z are one look-up (``tri``); a word start checks the stems of one and two
    letters on the way (a chained match is at least three long)."""
    cdef Py_ssize_t i, j, nh = 0
    cdef int32_t node, v
    cdef uint32_t c0, c1, c2
    cdef uint8_t end, start
    cdef bint ok
    # (local copies: the byte stores below may alias the model's fields, so these stay in registers)
    cdef const uint32_t* chars = s.chars
    cdef const uint8_t* flags = s.flags
    cdef uint8_t* chain = s.chain
    cdef const int32_t* dense = m.dense
    cdef const int32_t* tri = m.tri
    cdef const uint16_t* duo = m.duo
    cdef const int32_t* starts = s.starts
    cdef Py_ssize_t w = 0, chain_hi = -1
    memset(chain, 0, nc + 3)
    i = -1
    while True:
        # the next start: a chained one before the next word start, or that word start
        i += 1
        while i <= chain_hi and not chain[i] and not flags[i] & 1:
            i += 1
        if i > chain_hi or not chain[i]:
            if i > chain_hi:  # words whose first character begins no stem are skipped
                while w < n_words and not flags[starts[w]] & F_STEM:
                    w += 1
            if w == n_words:
                break
            i = starts[w]
        if flags[i] & 1:
            w += 1
        start = flags[i]
        j = i
        if i + 2 < nc:
            c0, c1, c2 = chars[i] - 0x61, chars[i + 1] - 0x61, chars[i + 2] - 0x61
            if c0 < 26 and c1 < 26 and c2 < 26:
                if start & 1:
                    v = duo[c0 * 26 + c1]
                    if v:
                        end = <uint8_t>(v & 0xFF)
                        if end and (not (end & 0x80) or start & 2):
                            nh = record(hc, hf, hw, chain, nh, end, start, w - 1, i, nc, &chain_hi)
                            if nh == MAX_HITS:
                                return nh
                        end = <uint8_t>(v >> 8)
                        if end and (not (end & 0x80) or flags[i + 1] & 2):
                            nh = record(hc, hf, hw, chain, nh, end, start, w - 1, i + 1, nc, &chain_hi)
                            if nh == MAX_HITS:
                                return nh
                node = tri[(c0 * 26 + c1) * 26 + c2]
                if node < 0:
                    continue
                j = i + 2
                end = m.end_info[node]
        if j == i:
            node = step(m, dense, 0, chars[i], &end)
            if node < 0:
                continue
        while True:
            if end == 0:
                ok = False
            elif start & 1:
                ok = not (end & 0x80) or (flags[j] & 2) != 0
            else:
                ok = j - i >= 2
            if ok:
                nh = record(hc, hf, hw, chain, nh, end, start, w - 1, j, nc, &chain_hi)
                if nh == MAX_HITS:
                    return nh
            j += 1
            if j >= nc:
                break
            node = step(m, dense, node, chars[j], &end)
            if node < 0:
                break
    return nh


cdef inline Py_ssize_t bucket(Py_ssize_t x, Py_ssize_t a, Py_ssize_t b, Py_ssize_t c, Py_ssize_t d,
                              Py_ssize_t e) noexcept nogil:
    return (x >= a) + (x >= b) + (x >= c) + (x >= d) + (x >= e)


cdef inline int32_t add(uint8_t* stamp, const int16_t* weights, uint8_t line_id, int32_t f) noexcept nogil:
    """The weight of feature ``f`` the first time it is seen on the line (``stamp``), else 0."""
    cdef int32_t new = stamp[f] != line_id  # (no branch: whether a word repeats is unpredictable)
    stamp[f] = line_id
    return weights[f] & -new


cdef int64_t features(const model_t* m, scratch_t* s, const int32_t* hc,
                      const uint8_t* hf, const int32_t* hw, Py_ssize_t nh, const shape_t* sh) noexcept nogil:
    """Reference ``features`` of a segment with at least MIN_HITS concept hits: the sum of the
    weights of its distinct active features (the concept blocks, pairs, ordered neighbours,
    shape buckets, and the words of ``s.hashes``, alone and in pairs)."""
    cdef int32_t used[MAX_HITS]
    cdef int32_t used_word[MAX_HITS]
    cdef int32_t gap
    cdef Py_ssize_t i, j, nu = 0, chained = 0
    cdef int32_t k = m.k, base
    cdef uint32_t hsh, prev = 0
    cdef int64_t total = 0
    cdef uint8_t* stamp = s.stamp
    cdef const int16_t* weights = m.weights
    cdef const uint32_t* hashes = s.hashes
    cdef uint8_t line_id
    if s.line_id == 255:  # (byte stamps: one per weight, 266 KB for the default model)
        memset(stamp, 0, m.n_weights)
        s.line_id = 0
    s.line_id += 1
    line_id = <uint8_t>s.line_id
    total += add(stamp, weights, line_id, 0)
    for i in range(nh):
        chained += (hf[i] & 32) != 0
        if hf[i] & 8:
            total += add(stamp, weights, line_id, 1 + 3 * k + hc[i])
            continue
        total += add(stamp, weights, line_id, 1 + hc[i])
        if hf[i] & 16:
            total += add(stamp, weights, line_id, 1 + k + hc[i])
        if hf[i] & 4:
            total += add(stamp, weights, line_id, 1 + 2 * k + hc[i])
        used[nu] = hc[i]
        used_word[nu] = hw[i]
        nu += 1
    for i in range(nu):
        for j in range(i + 1, min(i + 1 + PAIR_WINDOW, nu)):
            total += add(stamp, weights, line_id, 1 + 4 * k + min(used[i], used[j]) * k + max(used[i], used[j]))
    base = 1 + 4 * k + k * k
    for i in range(nu - 1):
        if used[i] != used[i + 1]:
            gap = used_word[i + 1] - used_word[i]
            total += add(stamp, weights, line_id,
                         base + (used[i] * k + used[i + 1]) * N_GAPS + (gap >= 1) + (gap >= 3))
    base += N_GAPS * k * k
    total += add(stamp, weights, line_id, base + <int32_t>bucket(sh.n_words, 3, 6, 11, 21, 41))
    total += add(stamp, weights, line_id, base + 6 + <int32_t>bucket(nh, 1, 2, 3, 5, 9))
    if sh.colon_end:
        total += add(stamp, weights, line_id, base + 12)
    if sh.question:
        total += add(stamp, weights, line_id, base + 13)
    if sh.quote:
        total += add(stamp, weights, line_id, base + 14)
    if sh.code >= 4:
        total += add(stamp, weights, line_id, base + 15)
    if sh.pipes >= 2:
        total += add(stamp, weights, line_id, base + 16)
    if chained >= 2:
        total += add(stamp, weights, line_id, base + 17)
    base += N_SHAPE
    for i in range(sh.n_words):
        hsh = hashes[i]
        total += add(stamp, weights, line_id, base + <int32_t>(hsh >> (32 - WORD_BITS)))
        total += add(stamp, weights, line_id, base + <int32_t>((((prev * 31u) ^ hsh) * 16777619u) & ((1u << WORD_BITS) - 1)))
        prev = hsh
    return total


cdef inline uint64_t mix(uint64_t k, uint32_t v) noexcept nogil:
    return (k ^ v) * 0x100000001B3ULL   # one FNV-1a-64 step


cdef inline bint in_memory(const model_t* m, uint64_t k) noexcept nogil:
    """Whether the key of the combined hash ``k`` (MurmurHash3's 64-bit finaliser, bit 0 set) is a
    known attack's."""
    cdef uint64_t slot
    k ^= k >> 33
    k *= 0xFF51AFD7ED558CCDULL
    k ^= k >> 33
    k *= 0xC4CEB9FE1A85EC53ULL
    k = (k ^ (k >> 33)) | 1
    slot = (k >> 1) & m.mmask
    while m.memory[slot]:
        if m.memory[slot] == k:
            return True
        slot = (slot + 1) & m.mmask
    return False


cdef bint known(const model_t* m, scratch_t* s, Py_ssize_t n_words, Py_ssize_t nc) noexcept nogil:
    """Reference ``known`` of ``memory_keys``: more than half of the segment's keys are in the
    memory (its ``n_words`` words, their hashes ``s.hashes`` and starts ``s.starts`` in ``nc``
    characters). The keys overwrite ``s.hashes`` (the last step to read them; a 64-bit key takes
    two of its places), then are looked up until the miss that decides. O(n_words)."""
    cdef uint32_t* hashes = s.hashes
    cdef uint64_t* keys = <uint64_t*>s.hashes
    cdef const int32_t* starts = s.starts
    cdef Py_ssize_t i, j = 0, chars = 0, n_keys = 0, misses = 0
    cdef uint64_t k = FNV64_BASIS
    if n_words >= MEMORY_SPAN:
        for i in range(n_words):  # runs of SHINGLE words and KEY_CHARS characters, one after another
            k = mix(k, hashes[i])
            chars += (starts[i + 1] if i + 1 < n_words else nc) - starts[i]
            if i + 1 - j >= SHINGLE and chars >= KEY_CHARS:
                keys[n_keys] = k    # (2 * n_keys + 1 <= i, as each run holds three or more words:
                n_keys += 1         # a hash is read before its place is reused)
                k, j, chars = FNV64_BASIS, i + 1, 0
        for i in range(n_keys):
            if not in_memory(m, keys[i]):
                misses += 1
                if 2 * misses >= n_keys:
                    return False
        if n_keys:
            return True
    k = mix(FNV64_BASIS, <uint32_t>n_words)
    for i in range(n_words):
        k = mix(k, hashes[i])
    return in_memory(m, k)


cdef bint judge(const model_t* m, scratch_t* s, const src_t* src, Py_ssize_t n, int64_t* score,
                Py_ssize_t* entry) noexcept nogil:
    """The folded segment ``src[:n]``: its structural entry (or -1, or KNOWN_ATTACK when it has none
    and is a known attack) into ``entry``, its score into ``score``; False (not scored) when it has
    fewer than MIN_HITS concept hits."""
    cdef shape_t sh
    cdef int32_t hc[MAX_HITS]
    cdef int32_t hw[MAX_HITS]
    cdef uint8_t hf[MAX_HITS]
    cdef Py_ssize_t nc, nh
    memset(&sh, 0, sizeof(shape_t))
    entry[0] = struct_start(m, src, n)
    nc = stream(m, s, src, n, &sh, entry)
    if sh.n_words == 0:
        return False
    nh = concept_hits(m, s, nc, sh.n_words, hc, hf, hw)
    if nh >= MIN_HITS:
        score[0] = features(m, s, hc, hf, hw, nh, &sh)
    if entry[0] == NO_ENTRY and known(m, s, sh.n_words, nc):
        entry[0] = KNOWN_ATTACK
    return nh >= MIN_HITS


cdef bint judge_folded(const model_t* m, scratch_t* s, Py_ssize_t nr, int64_t* score,
                       Py_ssize_t* entry) noexcept nogil:
    """:func:`judge` of the segment :func:`fold_segment` left in ``s.raw`` (``nr`` code points);
    without a structural entry, one that spells text in Tag characters gets HIDDEN_TEXT."""
    cdef bint scored = judge(m, s, <const uint32_t*>s.raw, nr, score, entry)
    if s.hidden and entry[0] < 0:  # (hidden text is certain by form: it goes before a known attack)
        entry[0] = HIDDEN_TEXT
    return scored


cdef inline int base64_value(const model_t* m, uint32_t c) noexcept nogil:
    return m.base64[c] if c < 0x80 else -1


cdef inline bint alnum(uint32_t c) noexcept nogil:
    return 0x30 <= c <= 0x39 or 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A


cdef bint octet_at(const unit_t* d, Py_ssize_t i, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """Reference ``_octet_at`` in d[a:b]: eight binary digits at ``i``, no ASCII letter or digit
    beside them."""
    cdef Py_ssize_t j
    if b - i < 8:
        return False
    for j in range(i, i + 8):
        if d[j] | 1 != 0x31:
            return False
    return not (i > a and alnum(d[i - 1])) and not (i + 8 < b and alnum(d[i + 8]))


cdef Py_ssize_t utf8_text(const uint8_t* p, Py_ssize_t n, uint32_t* out) noexcept nogil:
    """Reference ``_text``: the code points of ``p[:n]`` into ``out`` (tab, LF, CR, U+2028 and
    U+2029 as spaces); their number, or -1 when it is not text (not strict UTF-8, a control
    character, no ASCII letter)."""
    cdef Py_ssize_t i = 0, j, k, no = 0
    cdef uint32_t c, low
    cdef bint letter = False
    while i < n:
        c = p[i]
        if c < 0x80:
            k, low = 0, 0
        elif 0xC2 <= c <= 0xDF:
            k, low, c = 1, 0x80, c & 0x1F
        elif 0xE0 <= c <= 0xEF:
            k, low, c = 2, 0x800, c & 0x0F
        elif 0xF0 <= c <= 0xF4:
            k, low, c = 3, 0x10000, c & 0x07
        else:
            return -1
        if i + k >= n:
            return -1
        for j in range(i + 1, i + k + 1):
            if p[j] & 0xC0 != 0x80:
                return -1
            c = (c << 6) | (p[j] & 0x3F)
        if c < low or 0xD800 <= c <= 0xDFFF or c > 0x10FFFF:
            return -1
        if c == 0x09 or c == 0x0A or c == 0x0D or c == 0x2028 or c == 0x2029:
            c = 0x20
        elif c < 0x20 or 0x7F <= c <= 0x9F:
            return -1
        letter |= alnum(c) and c > 0x39
        out[no] = c
        no += 1
        i += k + 1
    return no if letter else -1


cdef bint judge_payload(const model_t* m, scratch_t* s, Py_ssize_t nb, bint* scored, int64_t* score,
                        Py_ssize_t* entry) noexcept nogil:
    """The payload of ``nb`` bytes (after the code points of ``s.payload``), if it is text, judged
    like a segment; the segment's verdict raised to it (a structural entry when it has none yet,
    the higher score). False when out of memory."""
    cdef uint32_t* text = <uint32_t*>s.payload
    cdef Py_ssize_t nt = utf8_text(s.payload + 4 * s.payload_cap, nb, text), nr, end, e
    cdef int64_t sc = 0
    cdef bint saw_tag = s.saw_tag
    if nt < 0:
        return True
    nr = fold_segment(m, s, text, 0, nt, &end)
    s.saw_tag = saw_tag           # (a payload's Tag characters are not the text's)
    if nr < 0:
        return False
    if judge_folded(m, s, nr, &sc, &e):
        if not scored[0] or sc > score[0]:
            score[0] = sc
        scored[0] = True
    if entry[0] == NO_ENTRY:
        entry[0] = e
    return True


cdef bint payloads(const model_t* m, scratch_t* s, const unit_t* d, Py_ssize_t a, Py_ssize_t b,
                   bint in_place, bint* scored, int64_t* score, Py_ssize_t* entry) noexcept nogil:
    """Reference ``payloads`` of the text d[a:b] as written: each base64 run, then each run of
    binary octets, decoded and judged (:func:`judge_payload`); only the kinds ``s.encoded`` may
    hold, and base64 only within ``s.runs_from:s.runs_to`` when the stream's positions are d's
    (``in_place``: an ASCII text, or every code point folded to one). False when out of memory."""
    cdef Py_ssize_t lo = a + s.runs_from if in_place else a, hi = a + s.runs_to if in_place else b
    cdef Py_ssize_t i, j, nb, bits
    cdef uint32_t acc = 0
    cdef uint8_t* out
    cdef int encoded = s.encoded  # (judging a payload streams it: s.encoded and s.runs_* change)
    if s.payload_cap < b - a:
        if not grow(<void**>&s.payload, 5 * (b - a)):
            return False
        s.payload_cap = b - a
    out = s.payload + 4 * s.payload_cap
    i = lo + MIN_BASE64 - 1  # (a run of MIN_BASE64 holds one of every MIN_BASE64-th position: probe those)
    while i < hi and encoded & 1:
        if base64_value(m, d[i]) < 0:
            i += MIN_BASE64
            continue
        j = i + 1
        while i > lo and base64_value(m, d[i - 1]) >= 0:
            i -= 1
        while j < hi and base64_value(m, d[j]) >= 0:
            j += 1
        if j - i >= MIN_BASE64:
            nb = bits = 0
            for i in range(i, j - ((j - i) % 4 == 1)):
                acc = (acc << 6) | <uint32_t>base64_value(m, d[i])
                bits += 6
                if bits >= 8:
                    bits -= 8
                    out[nb] = <uint8_t>(acc >> bits)
                    nb += 1
            if not judge_payload(m, s, nb, scored, score, entry):
                return False
        i = j + MIN_BASE64
    i = a
    while i < b and encoded & 2:
        if not octet_at(d, i, a, b):
            i += 1
            continue
        nb = 0
        while True:
            acc = 0
            for j in range(i, i + 8):
                acc = (acc << 1) | (d[j] & 1)
            out[nb] = <uint8_t>acc
            nb += 1
            if not (i + 8 < b and d[i + 8] == 0x20 and octet_at(d, i + 9, a, b)):
                break
            i += 9
        if nb >= MIN_OCTETS and not judge_payload(m, s, nb, scored, score, entry):
            return False
        i += 8
    return True


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


cdef Py_ssize_t next_boundary(const uint8_t* d, Py_ssize_t i, Py_ssize_t b) noexcept nogil:
    """Position of the first line boundary in the ASCII d[i:b], or b. Eight bytes at a time: every
    boundary is below 0x1F, and eight ASCII bytes hold none below it when (x - 0x1F…) & ~x has no
    high bit set."""
    cdef uint64_t x
    while i < b:
        if i + 8 <= b:
            memcpy(&x, d + i, 8)
            if ((x - 0x1F1F1F1F1F1F1F1FULL) & ~x & 0x8080808080808080ULL) == 0:
                i += 8
                continue
        if boundary(d[i]):
            return i
        i += 1
    return b


cdef int run_state(void* p) noexcept nogil:
    cdef pass_state* st = <pass_state*>p
    cdef scratch_t* s = &st.scratch
    cdef Py_ssize_t t, i, b, seg_start, seg_no, e = -1, nr
    cdef int64_t sc = 0
    cdef bint scored, in_place
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
            if st.ascii[t]:
                i = next_boundary(<const uint8_t*>d, seg_start, b)
                if not reserve(s, i - seg_start):
                    st.status = CKN_ENOMEM
                    return CKN_ENOMEM
                scored = judge(&st.model, s, <const uint8_t*>d + seg_start, i - seg_start, &sc, &e)
            else:
                if kind == 1:
                    nr = fold_segment(&st.model, s, <const uint8_t*>d, seg_start, b, &i)
                elif kind == 2:
                    nr = fold_segment(&st.model, s, <const uint16_t*>d, seg_start, b, &i)
                else:
                    nr = fold_segment(&st.model, s, <const uint32_t*>d, seg_start, b, &i)
                if nr < 0:
                    st.status = CKN_ENOMEM
                    return CKN_ENOMEM
                scored = judge_folded(&st.model, s, nr, &sc, &e)
            in_place = st.ascii[t] or not s.shifted  # (the stream's positions are d's)
            if s.encoded and not (
                    payloads(&st.model, s, <const uint8_t*>d, seg_start, i, in_place, &scored, &sc, &e)
                    if kind == 1 else
                    payloads(&st.model, s, <const uint16_t*>d, seg_start, i, in_place, &scored, &sc, &e)
                    if kind == 2 else
                    payloads(&st.model, s, <const uint32_t*>d, seg_start, i, in_place, &scored, &sc, &e)):
                st.status = CKN_ENOMEM
                return CKN_ENOMEM
            if e != NO_ENTRY or (scored and (st.all_scores or sc >= st.threshold)):
                if not append(st, t, seg_no, sc if scored else -(1 << 62), e):
                    st.status = CKN_ENOMEM
                    return CKN_ENOMEM
            if i >= b:
                break
            if i + 1 < b and rd(kind, d, i) == 0x0D and rd(kind, d, i + 1) == 0x0A:
                i += 1
            seg_no += 1
            seg_start = i + 1
        if s.saw_tag:
            s.saw_tag = False
            if not append(st, t, -1, 0, -1):
                st.status = CKN_ENOMEM
                return CKN_ENOMEM
    st.status = CKN_OK
    return CKN_OK


def n_weights(int k) -> int:
    """The number of weights of a model with ``k`` concepts (the feature layout above)."""
    return 1 + 4 * k + (1 + N_GAPS) * k * k + N_SHAPE + (1 << WORD_BITS)


cdef class Model:
    """The weights, trie, structural table and fold table as flat buffers (built once by
    ``ckn.sanitizer`` from the weights file, which it checks), and their C view."""
    cdef model_t m
    cdef readonly object buffers
    cdef readonly int k
    cdef uint8_t* spare_stamp      # a finished pass's stamps (and their last line_id), for the next
    cdef int32_t spare_line        # pass: taken and given back under the GIL
    cdef readonly long long threshold

    def __init__(self, int k, long long threshold, weights, dense, tkeys, tvals, end_info, spoints,
                 soffsets, swhere, fold_keys, fold_offsets, fold_pool, in_stem, first_of_stem, single,
                 memory):
        cdef const uint32_t[::1] keys = fold_keys
        cdef const uint32_t[::1] offs = fold_offsets
        cdef const uint32_t[::1] pool = fold_pool
        cdef const uint32_t[::1] sp = spoints
        cdef const int64_t[::1] so = soffsets
        cdef const uint8_t[::1] sa = swhere
        cdef const int16_t[::1] w = weights
        cdef const int32_t[::1] dn = dense
        cdef const uint64_t[::1] tk = tkeys
        cdef const int32_t[::1] tv = tvals
        cdef const uint8_t[::1] ei = end_info
        cdef const uint8_t[::1] ins = in_stem
        cdef const uint64_t[::1] sg = single
        cdef const uint8_t[::1] fos = first_of_stem
        cdef const uint64_t[::1] mem = memory
        cdef uint64_t[::1] table
        cdef uint64_t slot, mmask = 15
        cdef int32_t[::1] page
        cdef int32_t[::1] block
        cdef uint16_t[::1] classes
        cdef uint32_t[::1] one
        cdef int32_t[::1] tri
        cdef uint16_t[::1] duo
        cdef int32_t v
        cdef Py_ssize_t j, e, n_blocks = 1, c0, c1, c2
        cdef int32_t n1, n2, n3
        cdef uint32_t c
        self.k, self.threshold = k, threshold
        fold_page = array("i", [-1]) * PAGES
        page = fold_page
        page[0] = 0                   # block 0 always exists (the ASCII look-up reads it)
        for j in range(keys.shape[0]):
            if page[keys[j] >> 8] < 0:
                page[keys[j] >> 8] = n_blocks
                n_blocks += 1
        fold_block = array("i", [-1]) * (256 * n_blocks)
        block = fold_block
        for j in range(keys.shape[0]):
            c = keys[j]
            block[(page[c >> 8] << 8) | (c & 0xFF)] = <int32_t>((offs[j] << 5) | (offs[j + 1] - offs[j]))
        tri_table = array("i", [-1]) * (26 * 26 * 26)
        tri = tri_table
        duo_table = array("H", [0]) * (26 * 26)
        duo = duo_table
        for c0 in range(26):
            n1 = dn[c0]
            for c1 in range(26):
                n2 = dn[26 * (n1 >> 8) + c1] if n1 >= 0 else -1
                duo[26 * c0 + c1] = ((n2 & 0xFF) << 8 if n2 >= 0 else 0) | (n1 & 0xFF if n1 >= 0 else 0)
                for c2 in range(26):
                    n3 = dn[26 * (n2 >> 8) + c2] if n2 >= 0 else -1
                    tri[(26 * c0 + c1) * 26 + c2] = n3 >> 8 if n3 >= 0 else -1
        fold_one = array("I", [0]) * N_CLASS
        one = fold_one
        for c in range(N_CLASS):
            v = block[(page[c >> 8] << 8) | (c & 0xFF)] if page[c >> 8] >= 0 else -1
            one[c] = NO_ONE if boundary(c) else c if v < 0 else pool[v >> 5] if v & 31 == 1 else NO_ONE
        class_table = array("H", [0]) * N_CLASS
        classes = class_table
        for c in range(N_CLASS):
            classes[c] = class_of(c)
        for e in range(sa.shape[0]):
            if sa[e] == WHERE_ANY and sp[so[e]] < 0x80:
                classes[sp[so[e]]] |= C_ANY
        for c in range(N_CLASS):
            if (fos[c >> 3] >> (c & 7)) & 1:
                classes[c] |= C_STEM
        while mmask + 1 < 2 * mem.shape[0]:   # (at most half full)
            mmask = 2 * mmask + 1
        memory_table = array("Q", [0]) * (mmask + 1)
        table = memory_table
        for j in range(mem.shape[0]):
            if not mem[j] & 1 or (j > 0 and mem[j] <= mem[j - 1]):
                raise ValueError("the memory of known attacks is not odd keys in increasing order")
            slot = (mem[j] >> 1) & mmask
            while table[slot]:
                slot = (slot + 1) & mmask
            table[slot] = mem[j]
        self.buffers = (weights, dense, tkeys, tvals, end_info, spoints, soffsets, swhere, fold_page,
                        fold_block, fold_pool, fold_one, class_table, tri_table, duo_table, in_stem,
                        first_of_stem, single, memory_table)
        self.m.memory = &table[0]
        self.m.mmask = mmask
        self.m.k = k
        self.m.weights = &w[0]
        self.m.n_weights = w.shape[0]
        self.m.dense = &dn[0]
        self.m.tkeys = &tk[0]
        self.m.tvals = &tv[0]
        self.m.tmask = tk.shape[0] - 1
        self.m.end_info = &ei[0]
        self.m.tri = &tri[0]
        self.m.duo = &duo[0]
        self.m.single = &sg[0]
        self.m.in_stem = &ins[0]
        self.m.first_of_stem = &fos[0]
        self.m.spoints = &sp[0]
        self.m.soffsets = &so[0]
        self.m.swhere = &sa[0]
        self.m.n_struct = sa.shape[0]
        self.m.fold_page = &page[0]
        self.m.fold_block = &block[0]
        self.m.fold_pool = &pool[0]
        self.m.fold_one = &one[0]
        self.m.cls = &classes[0]
        for c in range(128):
            self.m.ascii_fold[c] = pool[block[c] >> 5] if block[c] >= 0 else c
            self.m.ascii_leet[c] = leet(c)
            self.m.base64[c] = (c - 0x41 if 0x41 <= c <= 0x5A else c - 0x61 + 26 if 0x61 <= c <= 0x7A else
                                c - 0x30 + 52 if 0x30 <= c <= 0x39 else 62 if c == 0x2B else 63 if c == 0x2F else -1)
            self.m.ascii_cls[c] = classes[self.m.ascii_fold[c]]

    def __dealloc__(self):
        free(self.spare_stamp)

    def fold(self, str text) -> str:
        """``text`` folded code point by code point (the table only: no leet, no boundaries cut)."""
        cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(text), nr = 0
        cdef int kind = PyUnicode_KIND(text)
        cdef const void* d = PyUnicode_DATA(text)
        cdef uint32_t one[MAX_FOLD]
        cdef uint32_t* out
        for i in range(n):  # the folded length first, then the code points
            nr += fold_cp(&self.m, rd(kind, d, i), one)
        out = <uint32_t*>malloc(4 * (nr + MAX_FOLD))
        if out == NULL:
            raise MemoryError()
        nr = 0
        for i in range(n):
            nr += fold_cp(&self.m, rd(kind, d, i), out + nr)
        try:
            return PyUnicode_FromKindAndData(4, out, nr)
        finally:
            free(out)


cdef class SanitizePass:
    """Prepared scan of a list of str (a ``ckn._passes`` pass); ``finish()`` gives the flagged
    segments as ``(text, segment, score, entry)`` rows (entry: the structural entry, -2 for hidden
    Tag text, -3 for a known attack, or -1; score ``-2**62``: not scored), and ``(text, -1, 0, -1)`` for each text holding
    Tag characters."""
    cdef pass_state st
    cdef ckn_pass p
    cdef object texts             # (the buffers read without the GIL stay alive)
    cdef Model model

    def __cinit__(self, Model model, list texts, bint all_scores=False):
        cdef Py_ssize_t n = len(texts), t, longest = 1
        cdef object text
        self.texts = list(texts)
        self.model = model
        st = &self.st
        st.data = <const void**>malloc(sizeof(void*) * (n + 1))
        st.kinds = <int*>malloc(sizeof(int) * (n + 1))
        st.lengths = <Py_ssize_t*>malloc(sizeof(Py_ssize_t) * (n + 1))
        st.ascii = <uint8_t*>malloc(n + 1)
        if not (st.data and st.kinds and st.lengths and st.ascii):
            raise MemoryError()
        for t, text in enumerate(self.texts):
            if type(text) is not str:
                raise TypeError(f"texts[{t}]: expected str, got {type(text).__name__}")
            st.data[t] = PyUnicode_DATA(text)
            st.kinds[t] = PyUnicode_KIND(text)
            st.lengths[t] = PyUnicode_GET_LENGTH(text)
            st.ascii[t] = PyUnicode_IS_ASCII(text)
            longest = max(longest, st.lengths[t])
        st.n_texts = n
        st.model = model.m
        st.threshold = model.threshold
        st.all_scores = all_scores
        st.status = -1
        sc = &st.scratch
        if model.spare_stamp != NULL:  # (a byte per weight: cleared once, not by every pass)
            sc.stamp, sc.line_id = model.spare_stamp, model.spare_line
            model.spare_stamp = NULL
        else:
            sc.stamp = <uint8_t*>calloc(st.model.n_weights, 1)
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
        free(self.st.scratch.starts)
        free(self.st.scratch.hashes)
        free(self.st.scratch.flags)
        free(self.st.scratch.chain)
        free(self.st.scratch.payload)
        if self.model is not None and self.model.spare_stamp == NULL:
            self.model.spare_stamp, self.model.spare_line = self.st.scratch.stamp, self.st.scratch.line_id
        else:
            free(self.st.scratch.stamp)
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
