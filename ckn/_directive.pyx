"""The directive model's weight sum (``ckn.directive_score.Model.score``) in C.

``AsciiScorer(weights)`` keeps the model's features in two open-addressing tables: its words
(UTF-8 bytes, 64-bit FNV-1a hash, the bytes compared on a hit) and its word pairs (keyed by the
two word numbers, spread by splitmix64's finaliser; both hashes from ``ckn.minhash``'s C API),
each feature with its rank among all the model's keys in sorted order.
``weight_sum(views)`` finds in each view what ``directive_score._tokens`` finds (in a plain-ASCII
view, runs of ASCII letters two or more long, read over its bytes without the GIL by
``directive_weight_sum``; in any other, runs of ``[^\\W\\d_]`` over code points, a run with a
CJK character giving its windows of two), and a pair for each two consecutive tokens, keeps the
known features once each and adds their weights in sorted feature order, left to right from
0.0: the double that ``directive_score._weight_sum`` gives (unknown features weigh 0.0, which
changes no sum). It returns None when a view is not a str or holds what ``_tokens`` may rewrite
as an address (``http``, ``www.``, ``@``, ``example``, or ``.`` before one of the address
pattern's domain endings and a word boundary: ``directive_score._ADDRESS_HINT``; in a non-ASCII
view a non-ASCII letter after the ending counts as a boundary too, which only sends more views
to Python); the caller then takes the Python path. O(total view length + k log k) for k known
features found; the tables take O(number of features) memory.
"""

from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memcpy, strlen

from ckn.minhash cimport minhash_fnv1a64 as _fnv1a, minhash_mix64 as _mix
from ckn.minhash cimport minhash_sort_unique
from ckn.typedefs cimport slot_t

__all__ = ["AsciiScorer"]

cdef extern from "Python.h":
    bint PyUnicode_CheckExact(object o)
    bint PyUnicode_IS_ASCII(object o)
    const char* PyUnicode_AsUTF8AndSize(object o, Py_ssize_t* size) except NULL
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    uint32_t PyUnicode_READ(int kind, void* data, Py_ssize_t index)
    bint Py_UNICODE_ISALNUM(uint32_t ch)
    bint Py_UNICODE_ISDECIMAL(uint32_t ch)

cdef uint64_t _EMPTY = 0xFFFFFFFFFFFFFFFFULL


cdef inline bint _is_letter(uint8_t c) noexcept nogil:
    return <unsigned int>((c | 32) - 97) < 26  # A-Z, a-z


# The domain endings of ``directive_score._ADDRESS`` (``_DOMAIN_ENDINGS``: after a dot, before
# a word boundary), then NULL.
cdef const char* _ENDINGS[23]
_ENDINGS[:] = [b"invalid", b"example", b"test", b"localhost", b"com", b"org", b"net", b"io",
               b"dev", b"ai", b"app", b"co", b"ru", b"de", b"fr", b"es", b"cn", b"jp", b"uk",
               b"eu", b"info", b"biz", NULL]


cdef inline bint _is_word(uint8_t c) noexcept nogil:
    return _is_letter(c) or 48 <= c <= 57 or c == 95  # \w on ASCII


cdef bint _ending_at(const uint8_t* p, Py_ssize_t n, Py_ssize_t i) noexcept nogil:
    """One of the domain endings starts at ``p[i]`` and a word boundary follows it."""
    cdef Py_ssize_t k = 0, m
    while _ENDINGS[k] != NULL:
        m = strlen(_ENDINGS[k])
        if (i + m <= n and memcmp(p + i, _ENDINGS[k], m) == 0
                and (i + m == n or not _is_word(p[i + m]))):
            return True
        k += 1
    return False


cdef bint _address_hint(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """True when ``directive_score._ADDRESS_HINT`` matches somewhere in ``p[:n]`` (ASCII)."""
    cdef Py_ssize_t i
    for i in range(n):
        if p[i] == 64:  # @
            return True
        if p[i] == 46 and i + 1 < n and 97 <= p[i + 1] <= 122 and _ending_at(p, n, i + 1):
            return True
        if p[i] == 104 and i + 4 <= n and memcmp(p + i, b"http", 4) == 0:
            return True
        if p[i] == 119 and i + 4 <= n and memcmp(p + i, b"www.", 4) == 0:
            return True
        if p[i] == 101 and i + 7 <= n and memcmp(p + i, b"example", 7) == 0:
            return True
    return False


cdef class AsciiScorer:
    """The model's ASCII features as C tables; see the module docstring."""

    # attributes: ckn/_directive.pxd

    def __cinit__(self, dict weights, double bias=0.0, double threshold=float("inf")):
        keys = sorted(weights)
        self.t.bias = bias
        self.t.threshold = threshold
        cdef Py_ssize_t n_keys = len(keys), r, k, slot, total = 0
        cdef uint64_t h, key64
        words: dict = {}  # word (bytes) -> number, in first-seen order
        w_feats, p_feats = [], []
        for r in range(n_keys):
            key = keys[r]  # (words as UTF-8: a non-ASCII one is found only in a non-ASCII view)
            if key.startswith("w:"):
                w_feats.append((words.setdefault(key[2:].encode(), len(words)), r))
            elif key.startswith("p:") and key.count(" ") == 1:
                a, b = key[2:].split(" ")
                p_feats.append((words.setdefault(a.encode(), len(words)),
                                words.setdefault(b.encode(), len(words)), r))
        cdef Py_ssize_t n_words = len(words), n_pairs = len(p_feats)
        for word in words:
            total += len(word)
        self.t.word_mask = _table_size(n_words) - 1
        self.t.pair_mask = _table_size(n_pairs) - 1
        self.t.word_hash = <uint64_t*>malloc((self.t.word_mask + 1) * sizeof(uint64_t))
        self.t.word_slot_id = <int32_t*>malloc((self.t.word_mask + 1) * sizeof(int32_t))
        self.t.word_bytes = <uint8_t*>malloc(total + 1)
        self.t.word_start = <Py_ssize_t*>malloc((n_words + 1) * sizeof(Py_ssize_t))
        self.t.word_rank = <int32_t*>malloc((n_words + 1) * sizeof(int32_t))
        self.t.pair_key = <uint64_t*>malloc((self.t.pair_mask + 1) * sizeof(uint64_t))
        self.t.pair_rank = <int32_t*>malloc((self.t.pair_mask + 1) * sizeof(int32_t))
        self.t.weight_of_rank = <double*>malloc((n_keys + 1) * sizeof(double))
        if (self.t.word_hash == NULL or self.t.word_slot_id == NULL or self.t.word_bytes == NULL
                or self.t.word_start == NULL or self.t.word_rank == NULL or self.t.pair_key == NULL
                or self.t.pair_rank == NULL or self.t.weight_of_rank == NULL):
            raise MemoryError()
        for r in range(n_keys):
            self.t.weight_of_rank[r] = float(weights[keys[r]])
        for slot in range(self.t.word_mask + 1):
            self.t.word_slot_id[slot] = -1
        total = 0
        k = 0
        for word in words:  # numbered in insertion order
            self.t.word_start[k] = total
            memcpy(self.t.word_bytes + total, <const char*>word, len(word))
            total += len(word)
            self.t.word_rank[k] = -1
            h = _fnv1a(self.t.word_bytes + self.t.word_start[k], len(word))
            slot = h & self.t.word_mask
            while self.t.word_slot_id[slot] >= 0:
                slot = (slot + 1) & self.t.word_mask
            self.t.word_hash[slot] = h
            self.t.word_slot_id[slot] = k
            k += 1
        self.t.word_start[n_words] = total
        for k, r in w_feats:
            self.t.word_rank[k] = r
        for slot in range(self.t.pair_mask + 1):
            self.t.pair_key[slot] = _EMPTY
        for a, b, r in p_feats:
            key64 = (<uint64_t>a << 32) | <uint64_t>b
            slot = _mix(key64) & self.t.pair_mask
            while self.t.pair_key[slot] != _EMPTY:
                slot = (slot + 1) & self.t.pair_mask
            self.t.pair_key[slot] = key64
            self.t.pair_rank[slot] = r

    def __dealloc__(self):
        free(self.t.word_hash)
        free(self.t.word_slot_id)
        free(self.t.word_bytes)
        free(self.t.word_start)
        free(self.t.word_rank)
        free(self.t.pair_key)
        free(self.t.pair_rank)
        free(self.t.weight_of_rank)

    cdef object _wide_weight_sum(self, views):
        """``weight_sum`` when a view is not ASCII: ``directive_score._tokens`` read over code
        points (runs of ``[^\\W\\d_]``, which ``re`` takes as alphanumeric and not decimal;
        a run with a ``_CJK`` character gives its two-character windows, or itself when it is
        one character long, any other run itself when two or more long), each token looked up
        by its bytes in the view's UTF-8 (kept by the str). None when a view holds a lone
        surrogate (no UTF-8) or an address hint: the ASCII hint test on its UTF-8 bytes, which a non-ASCII letter after a domain
        ending can only make fire where ``re``'s would not, so it only sends more views to
        Python."""
        cdef Py_ssize_t n_views = len(views), v, size, i, start, at, k, room = 2, found = 0
        cdef Py_ssize_t length, b, width
        cdef const uint8_t* utf8
        cdef int kind
        cdef void* data
        cdef uint32_t c
        cdef bint cjk
        cdef int32_t prev
        for v in range(n_views):
            room += 2 * PyUnicode_GET_LENGTH(views[v])
        cdef int32_t* ranks = <int32_t*>malloc(room * sizeof(int32_t))
        if ranks == NULL:
            raise MemoryError()
        try:
            for v in range(n_views):
                view = views[v]
                try:
                    utf8 = <const uint8_t*>PyUnicode_AsUTF8AndSize(view, &size)
                except UnicodeEncodeError:  # a lone surrogate: the Python path reads it
                    return None
                if _address_hint(utf8, size):
                    return None
                kind = PyUnicode_KIND(view)
                data = PyUnicode_DATA(view)
                length = PyUnicode_GET_LENGTH(view)
                prev = -2  # -2: no token yet in this view; -1: an unknown word
                i = b = 0  # code point i starts at byte b of utf8
                while i < length:
                    c = PyUnicode_READ(kind, data, i)
                    if not Py_UNICODE_ISALNUM(c) or Py_UNICODE_ISDECIMAL(c):
                        i += 1
                        b += _utf8_size(c)
                        continue
                    start, at, cjk = i, b, False
                    while i < length:
                        c = PyUnicode_READ(kind, data, i)
                        if not Py_UNICODE_ISALNUM(c) or Py_UNICODE_ISDECIMAL(c):
                            break
                        cjk = cjk or _is_cjk(c)
                        i += 1
                        b += _utf8_size(c)
                    if cjk and i - start > 1:  # windows of two: bytes at .. at + width
                        for k in range(start, i - 1):
                            width = _utf8_size(PyUnicode_READ(kind, data, k))
                            prev = _token(&self.t, utf8 + at,
                                          width + _utf8_size(PyUnicode_READ(kind, data, k + 1)),
                                          prev, ranks, &found)
                            at += width
                    elif cjk or i - start > 1:
                        prev = _token(&self.t, utf8 + at, b - at, prev, ranks, &found)
            return _ranked_sum(&self.t, ranks, found)
        finally:
            free(ranks)

    def weight_sum(self, views):
        """Sum of the weights of the distinct features of ``views`` (a tuple or list of str),
        in sorted feature order; None when the Python path must decide (see the module)."""
        if type(views) is not tuple and type(views) is not list:
            return None
        cdef Py_ssize_t size, total = 0, v, n_views = len(views)
        cdef bint wide = False
        for v in range(n_views):
            view = views[v]
            if not PyUnicode_CheckExact(view):
                return None
            wide = wide or not PyUnicode_IS_ASCII(view)
            total += len(view)
        if wide:
            return self._wide_weight_sum(views)
        cdef const uint8_t** data = <const uint8_t**>malloc((n_views + 1) * sizeof(uint8_t*))
        cdef Py_ssize_t* sizes = <Py_ssize_t*>malloc((n_views + 1) * sizeof(Py_ssize_t))
        cdef int32_t* ranks = <int32_t*>malloc(directive_ranks_room(total) * sizeof(int32_t))
        cdef double s
        try:
            if data == NULL or sizes == NULL or ranks == NULL:
                raise MemoryError()
            for v in range(n_views):
                data[v] = <const uint8_t*>PyUnicode_AsUTF8AndSize(views[v], &size)
                sizes[v] = size
            if directive_weight_sum(&self.t, data, sizes, n_views, ranks, &s) < 0:
                return None
            return s
        finally:
            free(data)
            free(sizes)
            free(ranks)


cdef int32_t _word(const DirectiveTables* t, const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """The number of the model word ``p[:n]``, or -1."""
    cdef uint64_t h = _fnv1a(p, n)
    cdef Py_ssize_t slot = h & t.word_mask
    cdef int32_t k
    while True:
        k = t.word_slot_id[slot]
        if k < 0:
            return -1
        if (t.word_hash[slot] == h and t.word_start[k + 1] - t.word_start[k] == n
                and memcmp(t.word_bytes + t.word_start[k], p, n) == 0):
            return k
        slot = (slot + 1) & t.word_mask


cdef int32_t _pair(const DirectiveTables* t, int32_t a, int32_t b) noexcept nogil:
    """The rank of the feature "p:<word a> <word b>", or -1."""
    cdef uint64_t key64 = (<uint64_t>a << 32) | <uint64_t>b
    cdef Py_ssize_t slot = _mix(key64) & t.pair_mask
    while t.pair_key[slot] != _EMPTY:
        if t.pair_key[slot] == key64:
            return t.pair_rank[slot]
        slot = (slot + 1) & t.pair_mask
    return -1


cdef Py_ssize_t directive_ranks_room(Py_ssize_t total) noexcept nogil:
    # at most one word and one pair per two bytes of a view (runs are two or more letters)
    return total + 2


cdef int directive_weight_sum(const DirectiveTables* t, const uint8_t* const* views,
                              const Py_ssize_t* sizes, Py_ssize_t n_views, int32_t* ranks,
                              double* out) noexcept nogil:
    cdef Py_ssize_t size, i, start, found = 0, v
    cdef const uint8_t* p
    cdef int32_t prev
    for v in range(n_views):
        p = views[v]
        size = sizes[v]
        if _address_hint(p, size):
            return -1
        prev = -2  # -2: no token yet in this view; -1: an unknown word
        i = 0
        while i < size:
            if not _is_letter(p[i]):
                i += 1
                continue
            start = i
            while i < size and _is_letter(p[i]):
                i += 1
            if i - start >= 2:
                prev = _token(t, p + start, i - start, prev, ranks, &found)
    out[0] = _ranked_sum(t, ranks, found)
    return 0


cdef inline int32_t _token(const DirectiveTables* t, const uint8_t* p, Py_ssize_t n,
                           int32_t prev, int32_t* ranks, Py_ssize_t* found) noexcept nogil:
    """Add to ``ranks`` the known features of the token ``p[:n]`` (its word, and its pair with
    the token before it, whose word number is ``prev``: -1 unknown, -2 none); return its word
    number, or -1."""
    cdef int32_t word = _word(t, p, n), r
    if word >= 0:
        r = t.word_rank[word]
        if r >= 0:
            ranks[found[0]] = r
            found[0] += 1
        if prev >= 0:
            r = _pair(t, prev, word)
            if r >= 0:
                ranks[found[0]] = r
                found[0] += 1
    return word


cdef double _ranked_sum(const DirectiveTables* t, int32_t* ranks, Py_ssize_t found) noexcept nogil:
    """The weights of the distinct ``ranks[:found]`` added in rank (sorted feature) order, left
    to right from 0.0; sorts ``ranks`` in place."""
    cdef double s = 0.0
    cdef Py_ssize_t i
    # ranks are >= 0, so as unsigned slots they sort the same (in place, inlined comparisons)
    found = minhash_sort_unique(<slot_t*>ranks, found)
    for i in range(found):
        s += t.weight_of_rank[ranks[i]]
    return s


cdef inline bint _is_cjk(uint32_t c) noexcept nogil:
    """``directive_score._cjk()``: kana, CJK ideographs (and extension A), Hangul syllables."""
    return (0x3040 <= c <= 0x30FF or 0x3400 <= c <= 0x4DBF or 0x4E00 <= c <= 0x9FFF
            or 0xAC00 <= c <= 0xD7AF)


cdef inline Py_ssize_t _utf8_size(uint32_t c) noexcept nogil:
    """Bytes of the UTF-8 encoding of ``c``."""
    return 1 if c < 0x80 else 2 if c < 0x800 else 3 if c < 0x10000 else 4


cdef Py_ssize_t _table_size(Py_ssize_t n):
    """A power of two at least twice ``n`` (load factor <= 1/2), at least 16."""
    cdef Py_ssize_t size = 16
    while size < 2 * n:
        size *= 2
    return size
