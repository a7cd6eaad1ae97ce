"""Candidate-segment pass of the sanitizer (``ckn.sanitizer``): which segments can match a rule.

One ``noexcept nogil`` pass over the text's code points (PEP 393 storage, read in place) splits it
on ``\\n`` into lines, cuts a line longer than ``segment_min`` code points into sentence segments
(``sanitizer._segments``: after ``.``, ``!`` or ``?`` followed by a space, tab, CR, FF or VT, and
after ``。``, ``！`` or ``？``), and keeps, for each segment, only what the Python pre-filter
``sanitizer._ascii_plan`` would look at:

* a segment with any code point >= 128 is always a candidate (the Python normalisation — NFKC,
  invisible characters, Tag decoding, look-alikes — decides it);
* a plain-ASCII segment is a candidate when one of its words is an anchor word, when it contains
  a marker pair (``<|``, ``</``, ``![`` …), or when it holds a run of spaced-out single letters.
  Words are taken as ``_ascii_plan`` takes them: bytes mapped through the same 256-byte table
  (lower case, leet digits read as letters, punctuation as a break) and split on ASCII
  whitespace, and once more with in-word punctuation dropped (the kernel always builds both
  word views; ``_ascii_plan`` builds the second only when it sees a disguise). Anchor words are
  kept as 64-bit FNV-1a hashes in an open-addressing table, each with the bit set of the rules
  it anchors; the segment's bit set tells Python which rules to run. A hash collision or the
  extra view only adds rules.

So the pass is conservative: every segment it drops is one that ``scan_line`` rejects without
running a regex, and the Python rules decide every segment it keeps. The test-suite checks that
``sanitize_text`` gives the same result with and without it, and that the segments are those of
``sanitizer._segments``.
"""

from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t

from ckn.typedefs cimport index_t

__all__ = ["LineScanner", "NON_ASCII", "SPACED_OUT"]


cdef extern from "Python.h":
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)


cdef enum:
    _MIN_SPACED = 4   # letters of a spaced-out run: " [a-z] {1,3}[a-z] {1,3}[a-z] {1,3}[a-z](?![a-z])"

# Flag bits of a candidate's mask above the rule bits.
NON_ASCII = 1 << 63
SPACED_OUT = 1 << 62
cdef uint64_t _NON_ASCII = NON_ASCII
cdef uint64_t _SPACED_OUT = SPACED_OUT
cdef uint64_t _FNV_OFFSET = 14695981039346656037ULL
cdef uint64_t _FNV_PRIME = 1099511628211ULL


cdef inline uint64_t _finish(uint64_t h) noexcept nogil:
    """0 marks an empty slot, so the hash 0 is stored as 1 (both when building and probing)."""
    return h if h != 0 else 1


cdef inline uint64_t _anchor_bits(const uint64_t* slots, uint64_t mask, uint64_t h) noexcept nogil:
    """Rule bits of the anchor word with hash ``h`` (0 when none); slots are (hash, bits) pairs."""
    cdef uint64_t i = h & mask
    while slots[2 * i] != 0:
        if slots[2 * i] == h:
            return slots[2 * i + 1]
        i = (i + 1) & mask
    return 0


cdef inline bint _is_space(uint8_t c) noexcept nogil:
    # bytes.split() whitespace (a newline never occurs inside a line)
    return c == 32 or c == 9 or c == 13 or c == 11 or c == 12


cdef inline bint _is_lower(uint8_t c) noexcept nogil:
    return 97 <= c <= 122


cdef bint _spaced_out(const uint8_t* t, index_t n) noexcept nogil:
    """``re.search(rb" [a-z] {1,3}[a-z] {1,3}[a-z] {1,3}[a-z](?![a-z])", t[:n])``; the space runs
    are followed by a letter, so ``{1,3}`` has one way to match and no backtracking is needed."""
    cdef index_t p, q, run
    cdef int letters
    for p in range(n - 1):
        if t[p] != 32 or not _is_lower(t[p + 1]):
            continue
        q = p + 1
        letters = 1
        while letters < _MIN_SPACED:
            run = 0
            while q + 1 + run < n and t[q + 1 + run] == 32:
                run += 1
            if run < 1 or run > 3 or q + 1 + run >= n or not _is_lower(t[q + 1 + run]):
                break
            q = q + 1 + run
            letters += 1
        if letters == _MIN_SPACED and (q + 1 >= n or not _is_lower(t[q + 1])):
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


cdef uint64_t _span_mask(
    const ucs_t* d, index_t start, index_t end,
    const uint8_t* table, const uint8_t* dropped,
    const uint8_t* pairs, const uint64_t* pair_masks,
    const uint64_t* slots, uint64_t slot_mask, uint8_t* work,
) noexcept nogil:
    """Mask of the code points ``[start, end)`` of one segment (no newline inside): the rule bits
    of its anchor words and markers plus ``SPACED_OUT``, or ``NON_ASCII``, or 0."""
    cdef index_t i, j = 0
    cdef index_t len1 = 0, len2 = 0
    cdef uint64_t mask = 0, h1 = _FNV_OFFSET, h2 = _FNV_OFFSET
    cdef uint32_t c, prev = 0
    cdef uint8_t t
    for i in range(start, end):
        c = d[i]
        if c >= 128:
            return _NON_ASCII
        mask |= pair_masks[pairs[(prev << 7) | c]]
        prev = c
        t = table[c]
        work[j] = t
        j += 1
        if _is_space(t):
            if len1:
                mask |= _anchor_bits(slots, slot_mask, _finish(h1))
                h1 = _FNV_OFFSET
                len1 = 0
        else:
            h1 = (h1 ^ t) * _FNV_PRIME
            len1 += 1
        if dropped[c]:
            continue
        if _is_space(t):
            if len2:
                mask |= _anchor_bits(slots, slot_mask, _finish(h2))
                h2 = _FNV_OFFSET
                len2 = 0
        else:
            h2 = (h2 ^ t) * _FNV_PRIME
            len2 += 1
    if len1:
        mask |= _anchor_bits(slots, slot_mask, _finish(h1))
    if len2:
        mask |= _anchor_bits(slots, slot_mask, _finish(h2))
    if _spaced_out(work, j):
        mask |= _SPACED_OUT
    return mask


cdef inline index_t _emit(index_t* out, index_t cap, index_t count, index_t start, index_t end,
                          index_t seg, index_t seg_end, uint64_t mask) noexcept nogil:
    """Record a candidate segment (when ``mask`` is set and there is room); the new count."""
    if mask and count < cap:
        out[5 * count] = start
        out[5 * count + 1] = end
        out[5 * count + 2] = seg
        out[5 * count + 3] = seg_end
        out[5 * count + 4] = <index_t>mask
    return count + (mask != 0)


cdef index_t _candidates(
    const ucs_t* d, index_t n, index_t segment_min,
    const uint8_t* table, const uint8_t* dropped,
    const uint8_t* pairs, const uint64_t* pair_masks,
    const uint64_t* slots, uint64_t slot_mask,
    uint8_t* work, index_t* out, index_t cap,
) noexcept nogil:
    cdef index_t i = 0, start, end, seg, p, count = 0
    while i <= n:
        start = i
        end = i
        while end < n and d[end] != 10:
            end += 1
        seg = start
        if end - start > segment_min:
            for p in range(start, end):
                if _sentence_end(d, p, end):
                    count = _emit(out, cap, count, start, end, seg, p + 1,
                                  _span_mask(d, seg, p + 1, table, dropped, pairs, pair_masks,
                                             slots, slot_mask, work))
                    seg = p + 1
        count = _emit(out, cap, count, start, end, seg, end,
                      _span_mask(d, seg, end, table, dropped, pairs, pair_masks, slots,
                                 slot_mask, work))
        i = end + 1  # skip the newline (or step past the end)
    return count


cdef index_t linescan_candidates(
    const void* data, int kind, index_t n, index_t segment_min,
    const uint8_t* table, const uint8_t* dropped,
    const uint8_t* pairs, const uint64_t* pair_masks,
    const uint64_t* slots, uint64_t slot_mask,
    uint8_t* work, index_t* out, index_t cap,
) noexcept nogil:
    """Write ``line_start, line_end, start, end, mask`` of every candidate segment of the ``n``
    code points at ``data`` (PEP 393 ``kind`` 1, 2 or 4) to ``out``; return how many segments.

    Lines split on ``\\n``; a line longer than ``segment_min`` code points is cut after every
    sentence end (``_sentence_end``) into segments, a shorter line is one segment
    (``sanitizer._segments``). ``table``: 128 bytes, the word table of ``_ascii_plan``;
    ``dropped``: 128 flags, in-word punctuation left out of the second word view; ``pairs``:
    128 * 128 bytes, index into ``pair_masks`` of a marker pair (0: none);
    ``slots``/``slot_mask``: the anchor table, ``slot_mask + 1`` (hash, bits) pairs, never full;
    ``work``: ``n`` bytes; ``out``: room for ``5 * cap`` indices (the first ``cap`` segments are
    written; the return value counts them all, so a caller can retry with more room). A mask is
    the rule bits, plus ``SPACED_OUT``, or just ``NON_ASCII`` for a segment with a code point
    >= 128.
    """
    if kind == 1:
        return _candidates(<const uint8_t*>data, n, segment_min, table, dropped, pairs,
                           pair_masks, slots, slot_mask, work, out, cap)
    if kind == 2:
        return _candidates(<const uint16_t*>data, n, segment_min, table, dropped, pairs,
                           pair_masks, slots, slot_mask, work, out, cap)
    return _candidates(<const uint32_t*>data, n, segment_min, table, dropped, pairs,
                       pair_masks, slots, slot_mask, work, out, cap)


cdef uint64_t _word_hash(bytes word):
    cdef uint64_t h = _FNV_OFFSET
    cdef uint8_t b
    for b in word:
        h = (h ^ b) * _FNV_PRIME
    return _finish(h)


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
        Two-character ASCII marker -> bit set of its rules.

    Rule bits must stay below bit 62 (``SPACED_OUT``, ``NON_ASCII``).
    """

    cdef bytes _table, _dropped, _pairs, _pair_masks, _slots
    cdef uint64_t _slot_mask

    def __init__(self, dict anchors not None, bytes table not None, bytes dropped not None,
                 dict markers not None):
        if len(table) != 256:
            raise ValueError(f"table: expected 256 bytes, got {len(table)}")
        self._table = table[:128]
        flags = bytearray(128)
        for b in dropped:
            if b < 128:
                flags[b] = 1
        self._dropped = bytes(flags)
        import array
        cdef Py_ssize_t size = 16
        while size < 4 * len(anchors) + 16:
            size *= 2
        slots = array.array("Q", bytes(16 * size))
        cdef uint64_t h, k
        for word, bits in anchors.items():
            if not isinstance(word, bytes) or not word or any(_is_space(b) for b in word):
                raise ValueError(f"anchor {word!r}: must be non-empty bytes without whitespace")
            if bits >> 62:
                raise ValueError(f"anchor {word!r}: rule bits {bits:#x} reach the flag bits")
            h = _word_hash(word)
            k = h & (size - 1)
            while slots[2 * k] != 0 and slots[2 * k] != h:
                k = (k + 1) & (size - 1)
            slots[2 * k] = h
            slots[2 * k + 1] |= bits
        self._slots = slots.tobytes()
        self._slot_mask = size - 1
        pairs = bytearray(128 * 128)
        masks = [0]
        for marker, bits in markers.items():
            if len(marker) != 2 or not marker.isascii():
                raise ValueError(f"marker {marker!r}: must be two ASCII characters")
            masks.append(bits)
            pairs[(ord(marker[0]) << 7) | ord(marker[1])] = len(masks) - 1
        if len(masks) > 256:
            raise ValueError("markers: at most 255")
        self._pairs = bytes(pairs)
        self._pair_masks = array.array("Q", masks).tobytes()

    def candidates(self, str text not None, index_t segment_min):
        """Flat ``[line_start, line_end, start, end, mask, …]`` for the segments of ``text`` that
        can match a rule (code-point offsets; lines split on ``\\n``, lines longer than
        ``segment_min`` cut after sentence ends; ``mask`` as described in
        ``linescan_candidates``, returned as a signed int64). Every other segment is plain ASCII
        with no anchor, marker or spaced-out letters."""
        cdef index_t n = PyUnicode_GET_LENGTH(text)
        cdef const void* data = PyUnicode_DATA(text)
        cdef int kind = PyUnicode_KIND(text)
        cdef bytearray work = bytearray(n + 1)
        cdef const uint8_t* table = <const uint8_t*><const char*>self._table
        cdef const uint8_t* dropped = <const uint8_t*><const char*>self._dropped
        cdef const uint8_t* pairs = <const uint8_t*><const char*>self._pairs
        cdef const uint64_t* pair_masks = <const uint64_t*><const char*>self._pair_masks
        cdef const uint64_t* slots = <const uint64_t*><const char*>self._slots
        cdef uint8_t* w = <uint8_t*><char*>work
        cdef index_t stack[5 * 16]
        cdef index_t* o = stack
        cdef index_t cap = 16, count
        cdef bytearray out
        while True:  # room for 16 candidate segments on the stack, else exactly as many as needed
            with nogil:
                count = linescan_candidates(data, kind, n, segment_min, table, dropped, pairs,
                                            pair_masks, slots, self._slot_mask, w, o, cap)
            if count <= cap:
                break
            cap = count
            out = bytearray(5 * cap * sizeof(index_t))
            o = <index_t*><char*>out
        return [o[k] for k in range(5 * count)]
