"""Rules' literal formulas, checked in C before their regexes run (``ckn._rule_formula``).

``LiteralIndex()`` holds the literals of every formula made with it in one Aho-Corasick
automaton (byte classes: the characters of the literals; every other byte goes back to the
root; a literal may hold any bytes: UTF-8 for text that is not ASCII, as ``FormulaBits.narrow``
reads it). ``found`` for an ASCII view is the set of its literals that occur in the view (and,
when an ordered formula asks, each one's first end and last start): one step per byte and a
look at the literals ending there, so O(len(view) + occurrences). It is kept for the last
``_KEPT`` views: the sanitizer checks a segment's views (the text and its de-obfuscated form)
against each selected rule in turn.

``LiteralFormula(index, literals, nodes, matcher)`` is one rule's formula (``literals`` and
``nodes`` from ``ckn._rule_formula.program``): ``check(view)`` evaluates it over the index's
found set as ``ckn._rule_formula.holds`` does: first whether its literals occur
(short-circuiting), then, for a formula with a SEQ node, the order of their places
(``_placed``); ``search(view)`` returns ``matcher(view)`` when the formula holds and None when
it does not, since then the regex cannot match. A view that is not ASCII passes
unchecked. These run holding the GIL (microseconds; the index's scratch is not shared across
threads without it).

``FormulaBits(index, programs)`` holds the formulas of the rules behind each rule bit of the
compiled candidate pass (``ckn._linescan.ViewChecks``) and freezes the index; its C function
``formulas_check`` (``ckn/_rulefilter.pxd``) reads them without the GIL, with the caller's own
found set.

``StartFinder(literals, pattern)`` runs a compiled regex on an ASCII view only from the places
where one of ``literals`` starts, when every match starts with one of them
(``ckn._rule_formula.starts``): its ``search``, ``finditer`` and ``sub`` give the regex's own.

When a program is loaded, each OR whose parts are all literals becomes one (word, mask) test per
found-set word its literals fall in (``_pack_literal_or``): most literal nodes sit in such ORs,
and a test of a word replaces a call per literal. ``FormulaBits`` also gives each program a gate
(``_gate``): literals one of which is found wherever the program holds, chosen to leave out the
common ones (single letters) where a rarer part must hold too; a bit's programs are evaluated
only where one of its gates' literals is found (``_live``).
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH
from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from libc.math cimport INFINITY
from libc.stdlib cimport calloc, free, malloc, qsort
from libc.string cimport memset

from array import array

from ckn._rule_formula import (MAX_LITERAL, MAX_PIECES, OP_AND, OP_FALSE, OP_LITERAL, OP_OR,
                               OP_PIECE, OP_PRESENT, OP_SEQ)

__all__ = ["AnyOf", "LiteralFormula", "LiteralIndex", "StartFinder"]

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)
    Py_ssize_t PyUnicode_FindChar(object s, Py_UCS4 ch, Py_ssize_t start, Py_ssize_t end,
                                  int direction) except -2

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(_MSC_VER) && !defined(__clang__)
    #include <intrin.h>
    static inline int ckn_rf_lowest_bit(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    static inline int ckn_rf_lowest_bit(uint64_t x) { return __builtin_ctzll(x); }
    #endif
    """
    int _lowest_bit "ckn_rf_lowest_bit"(uint64_t x) noexcept nogil  # x != 0

cdef extern from "Python.h":
    const Py_ssize_t PY_SSIZE_T_MAX

cdef enum:  # the node operations of ckn._rule_formula.program
    _LIT = 0
    _AND = 1
    _OR = 2
    _FALSE = 3
    _SEQ = 4
    _PRESENT = 5
    _PIECE = 6
    _ANY = 7  # internal (_copy_program): an OR of literals as (word, mask lo, mask hi) triples

cdef enum:
    _KEPT = 4  # views whose found sets are kept
    _SPARSE = 8  # StartFinder: its own way pays when at most one place in 8 starts a literal
    _MAX_PIECES = 16  # pieces of a SEQ whose order _placed checks (more: presence only)

if (OP_LITERAL, OP_AND, OP_OR, OP_FALSE, OP_SEQ, OP_PRESENT, OP_PIECE, MAX_PIECES) != (
        _LIT, _AND, _OR, _FALSE, _SEQ, _PRESENT, _PIECE, _MAX_PIECES):
    raise ImportError("ckn._rulefilter: node operations differ from ckn._rule_formula's")


cdef inline Py_ssize_t _bit_words(Py_ssize_t literals) noexcept nogil:
    """uint64 words of a bit set over ``literals`` literals."""
    return (literals >> 6) + 1


cdef inline Py_ssize_t* _ends(const uint64_t* found, Py_ssize_t literals) noexcept nogil:
    """A found set's first ends (then its last starts), after its found and placed bits."""
    return <Py_ssize_t*>(found + 2 * _bit_words(literals))


cdef inline uint8_t* _seen(uint64_t* found, Py_ssize_t literals) noexcept nogil:
    """A found set's walk scratch, after its last starts: ``literals + 1`` bytes, ``seen[k]``
    for literal ``k - 1``, all zero between walks (``found_set_ready``), then the hits."""
    return <uint8_t*>(found + 2 * _bit_words(literals) + 2 * literals)


cdef inline int32_t* _hits(uint64_t* found, Py_ssize_t literals) noexcept nogil:
    """A found set's hit list: ``literals + 1`` int32 (see ``_walk``)."""
    return <int32_t*>(_seen(found, literals) + 8 * ((literals + 8) >> 3))


cdef inline Py_ssize_t* _firsts(uint64_t* found, Py_ssize_t literals) noexcept nogil:
    """A found set's first and then last byte of each hit of a placing walk: ``literals + 1``
    each, after the hits."""
    return <Py_ssize_t*>(<uint64_t*>_hits(found, literals) + ((literals + 2) >> 1))


cdef inline Py_ssize_t _found_size(Py_ssize_t literals) noexcept nogil:
    """uint64 words of a found set over ``literals`` literals: the found bits, the placed bits
    (whose literals' first end and last start are set), the first ends and last starts, then
    the walk's scratch (``_seen``, ``_hits``, ``_firsts``)."""
    return (2 * _bit_words(literals) + 2 * literals + ((literals + 8) >> 3)
            + ((literals + 2) >> 1) + 2 * (literals + 1))


cdef void found_set_ready(const RuleBitFormulas* f, uint64_t* found) noexcept nogil:
    """Clear a new found set's walk scratch (``_seen``; each walk leaves it cleared)."""
    cdef Py_ssize_t literals = f.automaton.literals
    memset(_seen(found, literals), 0, literals + 1)
    _firsts(found, literals)[0] = 0   # "no literal": written, never read (for tidiness)
    _firsts(found, literals)[literals + 1] = 0


cdef inline uint64_t _mask_of(const int32_t* triple) noexcept nogil:
    """The 64-bit word mask of an ``_ANY`` triple (word, mask lo, mask hi)."""
    return <uint32_t>triple[1] | (<uint64_t><uint32_t>triple[2]) << 32


cdef bint _holds(const int32_t* nodes, Py_ssize_t i, const uint64_t* found) noexcept nogil:
    """Node ``i`` (and its subtree) over the bit set of the literals found, order aside (a SEQ
    as the AND of its pieces' conjuncts, a P or a piece as its part)."""
    cdef int32_t op = nodes[3 * i], arg = nodes[3 * i + 1]
    cdef Py_ssize_t j, end
    cdef bint every
    if op == _LIT:
        return (found[arg >> 6] >> (arg & 63)) & 1
    if op == _ANY:
        for j in range(i + 1, i + 1 + arg):
            if found[nodes[3 * j]] & _mask_of(nodes + 3 * j):
                return True
        return False
    if op == _FALSE:
        return False
    if op == _PRESENT or op == _PIECE:
        return _holds(nodes, i + 1, found)
    every = op != _OR
    end = nodes[3 * i + 2]
    j = i + 1
    while j < end:  # (a SEQ's part is a piece: its conjunct follows it)
        if _holds(nodes, j + (op == _SEQ), found) != every:
            return not every   # AND, SEQ: a false part; OR: a true part
        j = nodes[3 * j + 2]
    return every


cdef bint _placed(const int32_t* nodes, Py_ssize_t i, const uint64_t* placed,
                  const Py_ssize_t* ends, const Py_ssize_t* starts, Py_ssize_t* end,
                  Py_ssize_t* start) noexcept nogil:
    """Node ``i`` with order (``ckn._rule_formula._placed``): whether it holds over the placed
    literals (bit set ``placed``), and if so its E (a lower bound on where its match region
    ends) in ``end`` and its S (an upper bound on where it starts) in ``start``. ``ends`` /
    ``starts``: the placed literals' first ends and last starts. An OR reads every part (its
    bounds are over all the true ones)."""
    cdef int32_t op = nodes[3 * i], arg = nodes[3 * i + 1]
    cdef Py_ssize_t j, stop, e, s, lo, hi, literal
    cdef uint64_t bits
    cdef bint any_true = False
    if op == _LIT:
        if not (placed[arg >> 6] >> (arg & 63)) & 1:
            return False
        end[0] = ends[arg]
        start[0] = starts[arg]
        return True
    if op == _ANY:
        lo, hi = PY_SSIZE_T_MAX, 0
        for j in range(i + 1, i + 1 + arg):
            bits = placed[nodes[3 * j]] & _mask_of(nodes + 3 * j)
            while bits:
                literal = 64 * nodes[3 * j] + _lowest_bit(bits)
                bits &= bits - 1
                any_true = True
                lo = ends[literal] if ends[literal] < lo else lo
                hi = starts[literal] if starts[literal] > hi else hi
        end[0] = lo
        start[0] = hi
        return any_true
    if op == _FALSE:
        return False
    end[0] = 0
    start[0] = PY_SSIZE_T_MAX
    if op == _PRESENT:
        return _placed(nodes, i + 1, placed, ends, starts, &e, &s)
    stop = nodes[3 * i + 2]
    j = i + 1
    if op == _OR:
        lo, hi = PY_SSIZE_T_MAX, 0
        while j < stop:
            if _placed(nodes, j, placed, ends, starts, &e, &s):
                any_true = True
                lo = e if e < lo else lo
                hi = s if s > hi else hi
            j = nodes[3 * j + 2]
        end[0] = lo
        start[0] = hi
        return any_true
    if op == _SEQ:
        return _placed_seq(nodes, i, placed, ends, starts, end, start)
    lo, hi = 0, PY_SSIZE_T_MAX  # AND: the max of the ends, the min of the starts
    while j < stop:
        if not _placed(nodes, j, placed, ends, starts, &e, &s):
            return False
        lo = e if e > lo else lo
        hi = s if s < hi else hi
        j = nodes[3 * j + 2]
    end[0] = lo
    start[0] = hi
    return True


cdef bint _placed_seq(const int32_t* nodes, Py_ssize_t i, const uint64_t* placed,
                      const Py_ssize_t* ends, const Py_ssize_t* starts, Py_ssize_t* end,
                      Py_ssize_t* start) noexcept nogil:
    """``_placed`` of the SEQ node ``i``: each piece's E and S are those of the AND of its
    conjuncts (its ``_PIECE`` children); no earlier piece's E may exceed a later piece's S.
    A SEQ of more than ``_MAX_PIECES`` pieces is read as an AND (its order unchecked)."""
    cdef Py_ssize_t piece_end[_MAX_PIECES]
    cdef Py_ssize_t piece_start[_MAX_PIECES]
    cdef Py_ssize_t pieces = nodes[3 * i + 1], stop = nodes[3 * i + 2], j = i + 1, k, e, s
    cdef Py_ssize_t lo = 0, hi = PY_SSIZE_T_MAX
    cdef bint ordered = pieces <= _MAX_PIECES
    if ordered:
        for k in range(pieces):
            piece_end[k] = 0
            piece_start[k] = PY_SSIZE_T_MAX
    while j < stop:  # j: a _PIECE node, its conjunct at j + 1
        if not _placed(nodes, j + 1, placed, ends, starts, &e, &s):
            return False
        if ordered:
            k = nodes[3 * j + 1]
            piece_end[k] = e if e > piece_end[k] else piece_end[k]
            piece_start[k] = s if s < piece_start[k] else piece_start[k]
        lo = e if e > lo else lo
        hi = s if s < hi else hi
        j = nodes[3 * j + 2]
    if ordered:
        e = 0
        for k in range(pieces):
            if e > piece_start[k]:
                return False
            e = piece_end[k] if piece_end[k] > e else e
    end[0] = lo
    start[0] = hi
    return True


cdef inline bint _program_placed(const int32_t* nodes, const uint64_t* found,
                                 Py_ssize_t literals) noexcept nogil:
    """A program over a found set of ``literals`` literals whose places are set: its literals
    occur in an order it allows (``_placed`` of its root)."""
    cdef Py_ssize_t e, s
    cdef const Py_ssize_t* ends = _ends(found, literals)
    return _placed(nodes, 0, found + _bit_words(literals), ends, ends + literals, &e, &s)


ctypedef struct _Walker:
    const int32_t* next          # the automaton's rows (LiteralAutomaton.next)
    const uint8_t* classes
    Py_ssize_t column            # the rows' literal column
    uint8_t* seen                # the found set's walk scratch (_seen, _hits, _firsts)
    int32_t* hits
    Py_ssize_t* first
    Py_ssize_t* last
    Py_ssize_t count             # hits listed
    bint place


cdef inline Py_ssize_t _step(_Walker* w, const uint8_t* d, Py_ssize_t at,
                             Py_ssize_t row) noexcept nogil:
    """The row after byte ``at`` from ``row``; its literal (1 + the longest literal ending at
    ``at``, or 0) goes on the hit list unless it was seen (with ``place``, its first and last
    byte are kept). Branch-free: ``hits[count]`` is written either way."""
    row = w.next[row + w.classes[d[at]]]
    cdef int32_t hit = w.next[row + w.column]
    cdef Py_ssize_t new = w.seen[hit] ^ 1, was
    w.hits[w.count] = hit
    if w.place:
        was = w.first[hit]
        w.first[hit] = at if new or at < was else was
        was = w.last[hit]
        w.last[hit] = at if new or at > was else was
    w.seen[hit] = 1
    w.count += new
    return row


cdef void _walk(const LiteralAutomaton* t, const uint8_t* d, Py_ssize_t n, uint64_t* found,
                bint place) noexcept nogil:
    """Add to the found set ``found`` the literals of the automaton ``t`` that occur in the
    ``n`` ASCII bytes at ``d``; with ``place``, their places instead (placed bits, first ends
    and last starts: a literal placed before, in another view, keeps the earlier of the two
    first ends and the later of the two last starts). Places are taken only when an ordered
    formula needs them.

    One step per byte, without a branch (``_step``; a byte in no literal goes back to the
    root): the byte's row gives the longest literal ending there, listed the first time it is
    seen in this walk (``_seen``, reset at the end). After the walk each distinct hit's
    ``suffix`` chain (the literals ending where it ends) is read once: for presence, down to a
    literal already found (a found set holds every suffix of each of its literals). A view of
    48 bytes or more is walked as two parts at once (four from 256 bytes), each a chain of
    dependent loads: part k starts at the root ``longest - 1`` bytes before part k - 1 ends, so
    every occurrence lies whole in a part. O(n + distinct hits * longest)."""
    cdef Py_ssize_t j, row = 0, row2 = 0, row3 = 0, row4 = 0, literal, k, end, latest
    cdef Py_ssize_t literals = t.literals, overlap = t.longest - 1, parts, size, step, last
    cdef const int32_t* suffix = t.suffix
    cdef uint64_t* placed = found + _bit_words(literals)
    cdef Py_ssize_t* ends = _ends(found, literals)
    cdef Py_ssize_t* starts = ends + literals
    cdef _Walker w
    cdef int32_t hit
    cdef uint64_t bit
    w.next = t.next
    w.classes = t.classes
    w.column = t.stride - 1
    w.seen = _seen(found, literals)
    w.hits = _hits(found, literals)
    w.first = _firsts(found, literals)
    w.last = w.first + literals + 1
    w.count = 0
    w.place = place
    w.seen[0] = 1  # "no literal" is never a hit
    parts = 4 if n >= 256 else 2 if n >= 48 else 1
    size = (n + (parts - 1) * overlap + parts - 1) // parts   # bytes of a part
    step = size - overlap                                   # from one part's start to the next
    last = n - (parts - 1) * step                           # bytes of the last part
    if parts == 4:
        for j in range(last):
            row = _step(&w, d, j, row)
            row2 = _step(&w, d, step + j, row2)
            row3 = _step(&w, d, 2 * step + j, row3)
            row4 = _step(&w, d, 3 * step + j, row4)
    elif parts == 2:
        for j in range(last):
            row = _step(&w, d, j, row)
            row2 = _step(&w, d, step + j, row2)
    else:
        for j in range(n):
            row = _step(&w, d, j, row)
    for j in range(last, size):  # the parts before the last are longer by size - last
        row = _step(&w, d, j, row)
        if parts > 2:
            row2 = _step(&w, d, step + j, row2)
            row3 = _step(&w, d, 2 * step + j, row3)
    w.seen[0] = 0
    for k in range(w.count):
        hit = w.hits[k]
        w.seen[hit] = 0
        if place:
            end = w.first[hit] + 1
            latest = w.last[hit] + 1
        while hit:
            literal = hit - 1
            bit = 1ULL << (literal & 63)
            if not place:
                if found[literal >> 6] & bit:
                    break
                found[literal >> 6] |= bit
            elif placed[literal >> 6] & bit:
                ends[literal] = end if end < ends[literal] else ends[literal]
                starts[literal] = (latest - t.length[literal]
                                   if latest - t.length[literal] > starts[literal]
                                   else starts[literal])
            else:
                placed[literal >> 6] |= bit
                ends[literal] = end
                starts[literal] = latest - t.length[literal]
            hit = suffix[literal]


cdef class LiteralIndex:
    """The literals of every formula made with this index; see the module docstring."""

    # attributes: ckn/_rulefilter.pxd

    def __cinit__(self):
        self.ids = {}
        self.literals = []
        self.built = False
        self.frozen = False
        self.kept = [None] * _KEPT
        self.placed = 0
        self.victim = 0

    def __dealloc__(self):
        self._free_automaton()
        free(self.found)

    cdef void _free_automaton(self) noexcept:
        free(<void*>self.automaton.next)
        free(<void*>self.automaton.suffix)
        free(<void*>self.automaton.length)
        memset(&self.automaton, 0, sizeof(self.automaton))

    cpdef list add(self, list literals):
        """The numbers of ``literals`` (byte strings of 1 to MAX_LITERAL bytes), new ones
        appended; the trie is rebuilt on the next lookup."""
        cdef bytes word
        cdef list numbers = []
        for word in literals:
            if not 0 < len(word) <= MAX_LITERAL:
                raise ValueError("LiteralFormula: literals must have 1 to MAX_LITERAL bytes")
            if word not in self.ids:
                if self.frozen:
                    raise ValueError("LiteralIndex: a FormulaBits reads this index; no literal "
                                     "can be added")
                self.ids[word] = len(self.literals)
                self.literals.append(word)
                self.built = False
            numbers.append(self.ids[word])
        return numbers

    cdef int _build(self) except -1:
        """The trie of the literals, then its Aho-Corasick automaton: every missing edge set to
        where the longest proper suffix's state goes (so a walk takes one step per byte), built
        in the walk's own layout (``LiteralAutomaton``): rows of ``stride`` int32, one column
        per class, then the longest literal ending at the state; class 0 leads every row back
        to the root. The edges hold state numbers while the automaton is built and row offsets
        (no multiply per step) once it is. O(total literal bytes * stride)."""
        cdef Py_ssize_t total = 0, n_trie = 1, k, node, child, head, tail, w = 1, stride
        cdef int32_t* at = NULL
        cdef int32_t* link = NULL
        cdef int32_t* depth = NULL
        cdef int32_t* fail = NULL
        cdef int32_t* order = NULL
        cdef int32_t* rows
        cdef int32_t* row
        cdef int32_t* suffix
        cdef int32_t* length
        cdef bytes word
        cdef const uint8_t* data
        cdef Py_ssize_t i
        cdef int c
        self._free_automaton()
        free(self.found)
        self.found = NULL
        self.kept = [None] * _KEPT
        memset(self.classes, 0, sizeof(self.classes))
        for word in self.literals:
            total += len(word)
            data = <const uint8_t*><const char*>word  # (iterating bytes gives signed chars)
            for i in range(len(word)):
                c = data[i]
                if self.classes[c] == 0:
                    if w == 255:
                        raise ValueError("LiteralIndex: more than 254 distinct literal bytes")
                    self.classes[c] = <uint8_t>w
                    w += 1
        stride = w + 1
        if (total + 1) * stride > 0x7FFFFFFF:
            raise MemoryError("LiteralIndex: too many literal bytes for int32 row offsets")
        try:
            at = <int32_t*>malloc((total + 1) * sizeof(int32_t))
            link = <int32_t*>malloc((total + 1) * sizeof(int32_t))
            depth = <int32_t*>malloc((total + 1) * sizeof(int32_t))
            fail = <int32_t*>malloc((total + 1) * sizeof(int32_t))
            order = <int32_t*>malloc((total + 1) * sizeof(int32_t))
            # room for a state per literal byte; only the trie's states' rows are touched
            rows = <int32_t*>calloc((total + 1) * stride, sizeof(int32_t))
            suffix = <int32_t*>malloc((len(self.literals) + 1) * sizeof(int32_t))
            length = <int32_t*>malloc((len(self.literals) + 1) * sizeof(int32_t))
            self.automaton.next = rows   # owned here from now on (_free_automaton)
            self.automaton.suffix = suffix
            self.automaton.length = length
            self.found_words = _bit_words(len(self.literals))
            self.found_size = _found_size(len(self.literals))
            self.placed = 0
            self.found = <uint64_t*>calloc(_KEPT * self.found_size, sizeof(uint64_t))
            if (at == NULL or link == NULL or depth == NULL or fail == NULL or order == NULL
                    or rows == NULL or suffix == NULL or length == NULL or self.found == NULL):
                raise MemoryError()
            at[0] = -1
            depth[0] = 0
            for k, word in enumerate(self.literals):
                node = 0
                data = <const uint8_t*><const char*>word
                for i in range(len(word)):
                    c = data[i]
                    child = rows[node * stride + self.classes[c]]
                    if child == 0:
                        child = n_trie
                        n_trie += 1
                        at[child] = -1
                        depth[child] = depth[node] + 1
                        rows[node * stride + self.classes[c]] = <int32_t>child
                    node = child
                at[node] = <int32_t>k
            fail[0] = 0
            link[0] = 0
            head, tail = 0, 0
            for c in range(1, w):  # the root's children fall back to the root
                child = rows[c]
                if child:
                    fail[child] = 0
                    link[child] = 0
                    order[tail] = <int32_t>child
                    tail += 1
            while head < tail:  # breadth first: a state's fallback is shallower, so done
                node = order[head]
                head += 1
                row = rows + node * stride
                for c in range(1, w):
                    child = row[c]
                    if child and depth[child] == depth[node] + 1:
                        fail[child] = rows[fail[node] * stride + c]
                        link[child] = fail[child] if at[fail[child]] >= 0 else link[fail[child]]
                        order[tail] = <int32_t>child
                        tail += 1
                    else:
                        row[c] = rows[fail[node] * stride + c]
            for node in range(n_trie):  # state numbers to row offsets; the literal column
                row = rows + node * stride
                for c in range(w):
                    row[c] = <int32_t>(row[c] * stride)
                child = node if at[node] >= 0 else link[node]
                row[w] = at[child] + 1 if child else 0
                if at[node] >= 0:
                    suffix[at[node]] = at[link[node]] + 1 if link[node] else 0
                    length[at[node]] = depth[node]
        finally:
            free(at)
            free(link)
            free(depth)
            free(fail)
            free(order)
        self.automaton.classes = self.classes
        self.automaton.stride = stride
        self.automaton.literals = len(self.literals)
        self.automaton.longest = max([len(word) for word in self.literals], default=1)
        self.built = True
        return 0

    cdef const uint64_t* found_in(self, str view, bint place) except NULL:
        """The found set of the literals that occur in the ASCII ``view``; with ``place``,
        their places too (taken once per kept view, when first asked for)."""
        if not self.built:
            self._build()
        cdef Py_ssize_t k
        cdef uint64_t* found = NULL
        cdef const uint8_t* data = <const uint8_t*>PyUnicode_DATA(view)
        for k in range(_KEPT):
            if view is self.kept[k]:
                found = self.found + k * self.found_size
                break
        else:
            k = self.victim
            self.victim = (k + 1) % _KEPT
            found = self.found + k * self.found_size
            memset(found, 0, self.found_words * sizeof(uint64_t))
            _walk(&self.automaton, data, PyUnicode_GET_LENGTH(view), found, False)
            self.kept[k] = view
            self.placed &= ~(1 << k)
        if place and not self.placed & (1 << k):
            memset(found + self.found_words, 0, self.found_words * sizeof(uint64_t))
            _walk(&self.automaton, data, PyUnicode_GET_LENGTH(view), found, True)
            self.placed |= 1 << k
        return found


cdef int _copy_ints(int32_t* out, nodes, Py_ssize_t count) except -1:
    """``out[i] = nodes[i]`` for i < count: read in place from an ``array('H')`` (the shipped
    tables' nodes) or ``array('i')``, item by item from any other sequence."""
    cdef const unsigned short[::1] narrow
    cdef const int[::1] wide
    cdef Py_ssize_t i
    if type(nodes) is array and nodes.typecode == "H":
        narrow = nodes
        for i in range(count):
            out[i] = narrow[i]
    elif type(nodes) is array and nodes.typecode == "i":
        wide = nodes
        for i in range(count):
            out[i] = wide[i]
    else:
        for i in range(count):
            out[i] = nodes[i]
    return 0


cdef int _copy_program(int32_t* out, nodes, list numbers, str who, const double* costs=NULL,
                       uint8_t* gate=NULL, bint* gated=NULL) except -1:
    """Copy the ``len(nodes) // 3`` node triples to ``out``, each literal node's argument
    renumbered through ``numbers`` (``LiteralIndex.add``), checking that every operation is
    known, every argument names a literal, every end lies after its node and within the
    program, a P or a piece has a part, and a SEQ's parts are pieces numbered below its count.
    With ``gate`` (one cleared byte per literal), ``_gate`` of the program with the literals'
    ``costs`` marks its gate there and sets ``gated``. Returns 1 when the program has a SEQ
    node, else 0."""
    cdef Py_ssize_t i, j, n_nodes = len(nodes) // 3, count = len(numbers)
    cdef int32_t op
    cdef int ordered = 0
    _copy_ints(out, nodes, 3 * n_nodes)
    for i in range(n_nodes):
        op = out[3 * i]
        if not _LIT <= op <= _PIECE:
            raise ValueError(f"{who}: unknown node operation {op}")
        if op == _LIT and not 0 <= out[3 * i + 1] < count:
            raise ValueError(f"{who}: a literal node names no literal")
        if not i < out[3 * i + 2] <= n_nodes:
            raise ValueError(f"{who}: a node's end is out of order")
        if (op == _PRESENT or op == _PIECE) and out[3 * i + 2] == i + 1:
            raise ValueError(f"{who}: a P or piece node has no part")
    if gate != NULL:
        gated[0] = _gate(out, n_nodes, costs, gate)
    cdef int32_t* renumbered = <int32_t*>malloc((count + 1) * sizeof(int32_t))
    if renumbered == NULL:
        raise MemoryError()
    try:
        for j in range(count):
            renumbered[j] = numbers[j]
        for i in range(n_nodes):
            if out[3 * i] == _LIT:
                out[3 * i + 1] = renumbered[out[3 * i + 1]]
    finally:
        free(renumbered)
    for i in range(n_nodes):
        if out[3 * i] == _SEQ:
            ordered = 1
            j = i + 1
            while j < out[3 * i + 2]:
                if out[3 * j] != _PIECE or not 0 <= out[3 * j + 1] < out[3 * i + 1]:
                    raise ValueError(f"{who}: a SEQ part is not one of its pieces")
                j = out[3 * j + 2]
    i = 0
    while i < n_nodes:  # (a packed node's triples are not nodes: skip them)
        i = _pack_literal_or(out, i) if out[3 * i] == _OR else i + 1
    if i != n_nodes:
        raise MemoryError()  # (_pack_literal_or's scratch)
    return ordered


cdef double _literal_cost(bytes word):
    """How often ``_gate`` reckons the literal ``word`` (UTF-8) occurs in a view: 4^-(c - 1) for
    a literal of c code points (a single letter is in most views, a word in few)."""
    cdef const uint8_t* data = <const uint8_t*><const char*>word
    cdef Py_ssize_t i, points = 0
    for i in range(len(word)):
        points += (data[i] & 0xC0) != 0x80  # (a UTF-8 continuation byte starts no code point)
    return 0.25 ** (points - 1) if points > 1 else 1.0


cdef bint _gate(const int32_t* nodes, Py_ssize_t n_nodes, const double* costs,
                uint8_t* gate) except -1:
    """Mark in ``gate`` (a byte per literal, cleared) a set of the program's literals (numbered
    as its nodes number them) one of which is found wherever the program holds (``_holds``):
    a literal's set is itself; an OR's, the union of its parts' (a true OR has a true part);
    an AND's or a SEQ's, the set of one of its parts (each part holds), the one whose literals'
    ``costs`` sum least, so that the gate is rarely met; a P's or a piece's, its part's; FALSE's,
    none (it never holds). ``FormulaBits`` evaluates a program only where its gate meets the
    found set. Returns False, marking nothing, when an AND or a SEQ with no part (true with
    nothing found) leaves the program without a gate. O(nodes)."""
    cdef double* cost = <double*>malloc((n_nodes + 1) * sizeof(double))  # per node, its set's
    cdef int32_t* pick = <int32_t*>malloc((n_nodes + 1) * sizeof(int32_t))  # AND, SEQ: the part
    cdef uint8_t* chosen = <uint8_t*>malloc(n_nodes + 1)  # per node: its set is in the gate
    cdef Py_ssize_t i, j, end
    cdef int32_t op
    cdef double total
    try:
        if cost == NULL or pick == NULL or chosen == NULL:
            raise MemoryError()
        for i in range(n_nodes - 1, -1, -1):  # prefix order: a node's parts come after it
            op, end = nodes[3 * i], nodes[3 * i + 2]
            if op == _LIT:
                cost[i] = costs[nodes[3 * i + 1]]
            elif op == _FALSE:
                cost[i] = 0.0
            elif op == _PRESENT or op == _PIECE:
                cost[i] = cost[i + 1]
            elif op == _OR:  # (an OR with a part without a set has none: INFINITY)
                total = 0.0
                j = i + 1
                while j < end:
                    total += cost[j]
                    j = nodes[3 * j + 2]
                cost[i] = total
            else:  # AND, SEQ (a SEQ's parts are its pieces)
                cost[i] = INFINITY
                pick[i] = -1
                j = i + 1
                while j < end:
                    if cost[j] < cost[i]:
                        cost[i] = cost[j]
                        pick[i] = <int32_t>j
                    j = nodes[3 * j + 2]
        if cost[0] == INFINITY:
            return False
        memset(chosen, 0, n_nodes)
        chosen[0] = 1
        for i in range(n_nodes):  # parents first: the nodes whose sets make the gate
            if not chosen[i]:
                continue
            op, end = nodes[3 * i], nodes[3 * i + 2]
            if op == _LIT:
                gate[nodes[3 * i + 1]] = 1
            elif op == _PRESENT or op == _PIECE:
                chosen[i + 1] = 1
            elif op == _OR:
                j = i + 1
                while j < end:
                    chosen[j] = 1
                    j = nodes[3 * j + 2]
            elif op != _FALSE:
                chosen[pick[i]] = 1
        return True
    finally:
        free(cost)
        free(pick)
        free(chosen)


cdef int _by_value(const void* a, const void* b) noexcept nogil:
    return (<const int32_t*>a)[0] - (<const int32_t*>b)[0]


cdef Py_ssize_t _pack_literal_or(int32_t* out, Py_ssize_t i) noexcept:
    """Pack the literal parts of the OR node ``i`` as (word, mask lo, mask hi) triples, one per
    found-set word they fall in (no more triples than literals), so that ``_holds`` tests a
    word per triple instead of a node per literal. An OR's parts come smallest first
    (``ckn._rule_formula.program``), so its literals lead. When every part is a literal, the
    node itself becomes ``_ANY`` with the triples at ``i + 1`` on; when at least its first three
    are and the triples leave room for a node, they become one ``_ANY`` part in their place
    (ending where they ended, at the first other part). Unused slots are skipped (each node
    keeps its end). Returns where the caller's scan goes on: the node's end, the first other
    part, or ``i + 1`` (nothing packed); past ``out``'s nodes when memory ran out."""
    cdef Py_ssize_t end = out[3 * i + 2], j = i + 1, literals, count = 0, k, at
    cdef int32_t* words
    cdef uint64_t mask
    while j < end and out[3 * j] == _LIT and out[3 * j + 2] == j + 1:
        j += 1
    literals = j - (i + 1)
    if j < end and literals < 3:
        return i + 1
    words = <int32_t*>malloc((4 * literals + 3) * sizeof(int32_t))  # numbers, then triples
    if words == NULL:
        return PY_SSIZE_T_MAX
    for k in range(literals):
        words[k] = out[3 * (i + 1 + k) + 1]
    qsort(words, literals, sizeof(int32_t), _by_value)
    k = 0
    while k < literals:  # the triples go after the sorted numbers in ``words``
        mask = 0
        at = words[k] >> 6
        while k < literals and words[k] >> 6 == at:
            mask |= 1ULL << (words[k] & 63)
            k += 1
        words[literals + 3 * count] = <int32_t>at
        words[literals + 3 * count + 1] = <int32_t><uint32_t>(mask & 0xFFFFFFFFULL)
        words[literals + 3 * count + 2] = <int32_t><uint32_t>(mask >> 32)
        count += 1
    if j == end:  # all literals: the node becomes _ANY
        at = i
    elif count + 1 <= literals:  # the literals become one _ANY part
        at = i + 1
        out[3 * i + 1] -= <int32_t>(literals - 1)
        out[3 * at + 2] = <int32_t>j
    else:
        free(words)
        return i + 1
    out[3 * at] = _ANY
    out[3 * at + 1] = <int32_t>count
    for k in range(3 * count):
        out[3 * (at + 1) + k] = words[literals + k]
    free(words)
    return j if at == i + 1 else end


cdef class LiteralFormula:
    """One rule's formula over the literals of a LiteralIndex; see the module docstring."""

    cdef LiteralIndex index
    cdef int32_t* nodes
    cdef Py_ssize_t n_nodes
    cdef bint ordered
    cdef object matcher

    def __cinit__(self, LiteralIndex index not None, list literals, nodes, matcher):
        cdef list numbers = index.add(literals)
        self.index = index
        self.matcher = matcher
        self.n_nodes = len(nodes) // 3
        if self.n_nodes == 0:
            raise ValueError("LiteralFormula: no nodes")
        self.nodes = <int32_t*>malloc(3 * self.n_nodes * sizeof(int32_t))
        if self.nodes == NULL:
            raise MemoryError()
        self.ordered = _copy_program(self.nodes, nodes, numbers, "LiteralFormula")

    def __dealloc__(self):
        free(self.nodes)

    cpdef bint check(self, str view):
        """Whether the formula holds on ``view`` (True for a view that is not ASCII)."""
        if not PyUnicode_IS_ASCII(view):
            return True
        if not _holds(self.nodes, 0, self.index.found_in(view, False)):
            return False
        return not self.ordered or _program_placed(
            self.nodes, self.index.found_in(view, True), len(self.index.literals))

    def search(self, str view):
        """``matcher(view)`` when the formula holds on ``view``, else None (no match)."""
        if not self.check(view):
            return None
        return self.matcher(view)


cdef class AnyOf:
    """Whether one of ``searches`` finds a match in a view, tried in order: the alternatives of
    a split rule, each a ``LiteralFormula`` (its formula checked, then its matcher) or a plain
    callable. The loop runs in C, where a Python loop over bound ``search`` methods cost about
    as much as the checks themselves."""

    cdef tuple formulas  # per search: its LiteralFormula, or None for a plain callable
    cdef tuple plain     # per search: the callable where formulas[k] is None

    def __cinit__(self, searches):
        cdef list formulas = [], plain = []
        for search in searches:
            if isinstance(search, LiteralFormula):
                formulas.append(search)
                plain.append(None)
            else:
                formulas.append(None)
                plain.append(search)
        self.formulas, self.plain = tuple(formulas), tuple(plain)

    def __call__(self, str view not None):
        """True when one search matches ``view`` (a formula's matcher runs only where the
        formula holds), else False."""
        cdef Py_ssize_t k
        cdef LiteralFormula formula
        for k in range(len(self.formulas)):
            if self.formulas[k] is None:
                if self.plain[k](view):
                    return True
                continue
            formula = <LiteralFormula>self.formulas[k]
            if formula.check(view) and formula.matcher(view):
                return True
        return False


cdef void _narrow(const RuleBitFormulas* f, const uint64_t* found, uint64_t* lo, uint64_t* hi,
                  bint placed) noexcept nogil:
    """Clear the covered rule bits of (lo, hi) none of whose programs holds over ``found``;
    with ``placed`` (its places are set), only the bits with an ordered program are read, and
    their SEQ nodes must hold in order."""
    cdef uint64_t word, dead
    cdef Py_ssize_t half, bit, p
    for half in range(2):
        word = (lo[0] if half == 0 else hi[0]) & f.covered[half]
        if placed:
            word &= f.ordered_bits[half]
        dead = 0
        while word:
            bit = 64 * half + _lowest_bit(word)
            word &= word - 1
            for p in range(f.first[bit], f.first[bit + 1]):
                if (_program_placed(f.nodes + 3 * f.programs[p], found, f.automaton.literals)
                        if placed and f.ordered[p]
                        else _holds(f.nodes + 3 * f.programs[p], 0, found)):
                    break
            else:
                dead |= 1ULL << (bit - 64 * half)
        if half == 0:
            lo[0] &= ~dead
        else:
            hi[0] &= ~dead


cdef void _live(const RuleBitFormulas* f, const uint64_t* found, uint64_t* lo,
                uint64_t* hi) noexcept nogil:
    """Clear the covered rule bits of (lo, hi) none of whose programs' gates (``_gate``) meets
    ``found``: a program holds only where one of its gate's literals is found. A found set holds
    few literals, so this costs a pass over its words, where ``_narrow`` evaluates each bit's
    programs; the gates leave out the literals found in most views (single letters) wherever a
    rarer part must hold too. O(found_words + found literals)."""
    cdef uint64_t live_lo = 0, live_hi = 0, word
    cdef Py_ssize_t k, literal
    for k in range(f.found_words):
        word = found[k]
        while word:
            literal = (k << 6) + _lowest_bit(word)
            word &= word - 1
            live_lo |= f.literal_bits[2 * literal]
            live_hi |= f.literal_bits[2 * literal + 1]
    lo[0] &= live_lo | f.ungated[0] | ~f.covered[0]
    hi[0] &= live_hi | f.ungated[1] | ~f.covered[1]


cdef void formulas_check(const RuleBitFormulas* f, const uint8_t* const* views,
                         const Py_ssize_t* sizes, Py_ssize_t count, const uint64_t* extra,
                         bint ordered, uint64_t* found, uint64_t* lo, uint64_t* hi) noexcept nogil:
    cdef Py_ssize_t k
    memset(found, 0, f.found_words * sizeof(uint64_t))
    for k in range(count):
        _walk(&f.automaton, views[k], sizes[k], found, False)
    if extra != NULL:
        for k in range(f.found_words):
            found[k] |= extra[k]
    _live(f, found, lo, hi)
    _narrow(f, found, lo, hi, False)
    if ordered and (lo[0] & f.ordered_bits[0] or hi[0] & f.ordered_bits[1]):
        memset(found + f.found_words, 0, f.found_words * sizeof(uint64_t))
        for k in range(count):
            _walk(&f.automaton, views[k], sizes[k], found, True)
        _narrow(f, found, lo, hi, True)


cdef int _gated_copy(int32_t* out, nodes, literals, list numbers, Py_ssize_t bit, list holders,
                     uint64_t* ungated) except -1:
    """``_copy_program`` for ``FormulaBits``: ``(number, bit)`` for each literal of the
    program's gate goes on ``holders``, or ``bit`` into ``ungated`` when it has none."""
    cdef Py_ssize_t j, count = len(numbers)
    cdef double* costs = <double*>malloc((count + 1) * sizeof(double))
    cdef uint8_t* gate = <uint8_t*>calloc(count + 1, 1)
    cdef bint gated = False
    cdef int ordered
    try:
        if costs == NULL or gate == NULL:
            raise MemoryError()
        for j in range(count):
            costs[j] = _literal_cost(literals[j])
        ordered = _copy_program(out, nodes, numbers, "FormulaBits", costs, gate, &gated)
        if not gated:
            ungated[bit >> 6] |= 1ULL << (bit & 63)
        holders.extend([(numbers[j], bit) for j in range(count) if gate[j]])
        return ordered
    finally:
        free(costs)
        free(gate)


cdef class FormulaBits:
    """The formulas of the rules behind each rule bit of ``ckn._linescan``, over one
    ``LiteralIndex``, for the compiled pass to drop the rule bits of a segment whose views hold
    none of their rules' formulas (``formulas_check``; read without the GIL).

    ``programs[b]`` lists the programs (``ckn._rule_formula.program``: ``(literals, nodes)``,
    or None for a rule with no formula) of the rules behind rule bit ``b`` (0..125); a bit with
    a None, or with no list, is never dropped. The index gets every literal and is then frozen:
    its trie stays as it is while this object lives."""

    # attributes: ckn/_rulefilter.pxd

    def __cinit__(self, LiteralIndex index not None, list programs not None):
        cdef Py_ssize_t b, total_nodes = 0, count = 0, k, at = 0
        cdef list holders = []  # (literal number, rule bit) of every program's gate
        if len(programs) > 126:
            raise ValueError("FormulaBits: at most 126 rule bits")
        for rules in programs:
            for program in rules or ():
                if program is not None:
                    total_nodes += len(program[1]) // 3
                    count += 1
        self.index = index
        self.nodes = <int32_t*>malloc((3 * total_nodes + 1) * sizeof(int32_t))
        self.programs = <Py_ssize_t*>malloc((count + 1) * sizeof(Py_ssize_t))
        self.ordered = <uint8_t*>malloc(count + 1)
        if self.nodes == NULL or self.programs == NULL or self.ordered == NULL:
            raise MemoryError()
        memset(&self.data, 0, sizeof(self.data))
        k = 0
        for b in range(127):
            self.data.first[b] = k
            if b >= len(programs) or not programs[b] or None in programs[b]:
                continue
            for literals, nodes in programs[b]:
                if len(nodes) < 3:
                    raise ValueError("FormulaBits: a program has no nodes")
                self.programs[k] = at
                numbers = index.add(list(literals))
                self.ordered[k] = _gated_copy(self.nodes + 3 * at, nodes, literals, numbers,
                                              b, holders, self.data.ungated)
                if self.ordered[k]:
                    self.data.ordered_bits[b >> 6] |= 1ULL << (b & 63)
                at += len(nodes) // 3
                k += 1
            self.data.covered[b >> 6] |= 1ULL << (b & 63)
        if not index.built:
            index._build()
        index.frozen = True
        self.data.automaton = index.automaton
        self.data.found_words = index.found_words
        self.data.found_size = index.found_size
        self.data.nodes = self.nodes
        self.data.programs = self.programs
        self.data.ordered = self.ordered
        self.quoted = <uint64_t*>calloc(index.found_words, sizeof(uint64_t))
        if self.quoted == NULL:
            raise MemoryError()
        for k, word in enumerate(index.literals):
            # (find, not ``in``: ``x in bytes`` first tries x as an int, an exception each)
            if (word == b" " or word.find(b"'") >= 0 or word.find(b'" ') >= 0
                    or word.find(b' "') >= 0):
                self.quoted[k >> 6] |= 1ULL << (k & 63)
        self.data.quoted = self.quoted
        self.literal_bits = <uint64_t*>calloc(2 * len(index.literals) + 2, sizeof(uint64_t))
        if self.literal_bits == NULL:
            raise MemoryError()
        for k, b in holders:
            self.literal_bits[2 * k + (b >> 6)] |= 1ULL << (b & 63)
        self.data.literal_bits = self.literal_bits

    def __dealloc__(self):
        free(self.nodes)
        free(self.programs)
        free(self.ordered)
        free(self.quoted)
        free(self.found)
        free(self.literal_bits)

    def gate(self, Py_ssize_t bit):
        """The literals of rule bit ``bit``'s gates (``_gate``: its programs are evaluated only
        where one of them is found), sorted; None for a bit that is not covered (never dropped)
        or has a program without a gate (evaluated on every found set)."""
        if not 0 <= bit < 126:
            raise ValueError("FormulaBits.gate: a rule bit is 0..125")
        cdef uint64_t b = 1ULL << (bit & 63)
        if not self.data.covered[bit >> 6] & b or self.data.ungated[bit >> 6] & b:
            return None
        return sorted(word for k, word in enumerate(self.index.literals)
                      if self.literal_bits[2 * k + (bit >> 6)] & b)

    def narrow(self, views, mask, *, bint ordered=True):
        """``mask`` (an int of rule bits, 128-bit) without the covered bits whose programs
        all fail over the literals of the byte strings ``views`` found together (each literal
        at its earliest end and latest start in any of them), with SEQ order checked when
        ``ordered`` (the compiled pass calls ``formulas_check``). Views of text go in as
        UTF-8: a literal's bytes occur in a view's bytes exactly where the literal occurs."""
        cdef list strings = list(views)
        if not all(isinstance(v, bytes) for v in strings):
            raise ValueError("FormulaBits.narrow: the views must be bytes")
        cdef uint64_t lo = mask & 0xFFFFFFFFFFFFFFFF, hi = mask >> 64
        cdef Py_ssize_t k, count = len(strings)
        if self.found == NULL:  # kept: the calls hold the GIL, and a walk leaves it ready
            self.found = <uint64_t*>calloc(self.data.found_size, sizeof(uint64_t))
            if self.found == NULL:
                raise MemoryError()
            found_set_ready(&self.data, self.found)
        cdef const uint8_t** data = <const uint8_t**>malloc((count + 1) * sizeof(uint8_t*))
        cdef Py_ssize_t* sizes = <Py_ssize_t*>malloc((count + 1) * sizeof(Py_ssize_t))
        try:
            if data == NULL or sizes == NULL:
                raise MemoryError()
            for k in range(count):
                data[k] = <const uint8_t*><const char*>strings[k]
                sizes[k] = len(strings[k])
            formulas_check(&self.data, data, sizes, count, NULL, ordered, self.found, &lo, &hi)
        finally:
            free(data)
            free(sizes)
        return lo | (<object>hi) << 64


cdef class StartFinder:
    """A regex run only from where its matches can start in an ASCII view: the places of its
    ``starts`` literals (``ckn._rule_formula.starts``: every match starts with one of them,
    so no match is empty); or, with ``lines``, in any view: where a line starts (position 0
    and after each newline: ``ckn._rule_formula.line_anchored``, a pattern that begins with
    ``^``). ``search``, ``finditer`` and ``sub`` give what the regex's own give (``finditer``
    as a list), by ``pattern.match`` at each such place in turn from the end of the last match
    on, where the regex's own scan tries every position. A view that is not ASCII (without
    ``lines``), where the literals start at more than one place in ``_SPARSE``, or where a line
    start holds an empty match goes to the regex's own methods. The places: one walk of an
    automaton of the literals, O(len(view) + occurrences), or one search for newlines."""

    cdef LiteralIndex index
    cdef object pattern
    cdef object match
    cdef bint empty  # no literals: no match in an ASCII view
    cdef bint lines  # matches start where lines do

    def __cinit__(self, list literals not None, pattern, *, bint lines=False):
        self.index = LiteralIndex()
        self.index.add(literals)
        self.empty = not literals
        if not self.empty:
            self.index._build()
        self.pattern = pattern
        self.match = pattern.match
        self.lines = lines

    cdef list _places(self, str view, bint bounded):
        """The ascending places where a match may start: where lines start, or where a literal
        starts in an ASCII ``view`` (``_literal_places``); None when the regex's own scan
        should run instead."""
        cdef Py_ssize_t n, at = 0
        cdef list places
        if self.lines:
            n = PyUnicode_GET_LENGTH(view)
            places = [0]
            while True:
                at = PyUnicode_FindChar(view, 10, at, n, 1)
                if at < 0:
                    return places
                at += 1
                places.append(at)
        if not PyUnicode_IS_ASCII(view):
            return None
        return self._literal_places(view, bounded)

    cdef list _literal_places(self, str view, bint bounded):
        """The ascending places where a literal starts in the ASCII ``view``; with
        ``bounded``, None when there are more than ``len(view) / _SPARSE`` of them."""
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(view), j, row = 0, start, count = 0, w
        cdef const uint8_t* d = <const uint8_t*>PyUnicode_DATA(view)
        cdef const LiteralAutomaton* t = &self.index.automaton
        cdef Py_ssize_t column = t.stride - 1
        cdef int32_t hit
        cdef uint64_t bits
        cdef list places = []
        if self.empty or n == 0:
            return places
        cdef uint64_t* marks = <uint64_t*>calloc((n >> 6) + 1, sizeof(uint64_t))
        if marks == NULL:
            raise MemoryError()
        try:
            for j in range(n):
                row = t.next[row + t.classes[d[j]]]
                hit = t.next[row + column]
                while hit:  # every literal that ends at j (the longest, then its suffixes)
                    start = j + 1 - t.length[hit - 1]
                    count += not (marks[start >> 6] >> (start & 63)) & 1
                    marks[start >> 6] |= 1ULL << (start & 63)
                    hit = t.suffix[hit - 1]
            if bounded and count * _SPARSE > n:
                return None
            for w in range((n >> 6) + 1):
                bits = marks[w]
                while bits:
                    places.append((w << 6) + _lowest_bit(bits))
                    bits &= bits - 1
            return places
        finally:
            free(marks)

    def starts(self, str view not None):
        """The ascending places in the ASCII ``view`` where one of the literals starts."""
        if not PyUnicode_IS_ASCII(view):
            raise ValueError("StartFinder.starts: the view must be ASCII")
        return self._literal_places(view, False)

    def search(self, str view not None):
        """``pattern.search(view)``."""
        cdef list places = self._places(view, True)
        if places is None:
            return self.pattern.search(view)
        for place in places:
            found = self.match(view, place)
            if found is not None:
                return found
        return None

    cdef list _matches(self, str view, list places):
        """The regex's matches in ``view`` found from ``places``, as ``finditer`` finds them:
        each the first from the end of the one before; None when one is empty (``finditer``'s
        rule for what follows an empty match is its own)."""
        cdef list found = []
        cdef Py_ssize_t after = 0, place
        for place in places:
            if place >= after:
                m = self.match(view, place)
                if m is not None:
                    if m.end() == place:
                        return None
                    found.append(m)
                    after = m.end()
        return found

    def finditer(self, str view not None):
        """``list(pattern.finditer(view))``."""
        cdef list places = self._places(view, True)
        cdef list found = None if places is None else self._matches(view, places)
        if found is None:
            return list(self.pattern.finditer(view))
        return found

    def sub(self, repl, str view not None):
        """``pattern.sub(repl, view)`` for a callable ``repl`` (match -> str)."""
        cdef list places = self._places(view, True)
        cdef list found = None if places is None else self._matches(view, places)
        if found is None:
            return self.pattern.sub(repl, view)
        if not found:
            return view
        cdef list pieces = []
        cdef Py_ssize_t before = 0
        for m in found:
            pieces.append(view[before:m.start()])
            pieces.append(repl(m))
            before = m.end()
        pieces.append(view[before:])
        return "".join(pieces)
