"""Rules' literal formulas, checked in C before their regexes run (``ckn._rule_formula``).

``LiteralIndex()`` holds the literals of every formula made with it in one trie (byte classes:
the characters of the literals; every other byte ends a walk). ``found`` for an ASCII view is
the set of its literals that occur in the view: a walk of the trie from every position, at most
``MAX_LITERAL`` steps each, so O(len(view) · MAX_LITERAL) and usually a step or two per
position. It is kept for the last ``_KEPT`` views: the sanitizer checks a segment's views (the
text and its de-obfuscated form) against each selected rule in turn.

``LiteralFormula(index, literals, nodes, matcher)`` is one rule's formula (``literals`` and
``nodes`` from ``ckn._rule_formula.program``): ``check(view)`` evaluates it over the index's
found set, short-circuiting; ``search(view)`` returns ``matcher(view)`` when the formula holds
and None when it does not, since then the regex cannot match. A view that is not ASCII passes
unchecked. These run holding the GIL (microseconds; the index's scratch is not shared across
threads without it).

``FormulaBits(index, programs)`` holds the formulas of the rules behind each rule bit of the
compiled candidate pass (``ckn._linescan.ViewChecks``) and freezes the index; its C functions
(``formulas_found``, ``formulas_narrow``, ``ckn/_rulefilter.pxd``) read them without the GIL,
with the caller's own found set.
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH
from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from ckn._rule_formula import MAX_LITERAL, OP_AND, OP_FALSE, OP_LITERAL, OP_OR

__all__ = ["LiteralFormula", "LiteralIndex"]

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)

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

cdef enum:  # the node operations of ckn._rule_formula.program
    _LIT = 0
    _AND = 1
    _OR = 2
    _FALSE = 3

cdef enum:
    _KEPT = 4  # views whose found sets are kept

if (OP_LITERAL, OP_AND, OP_OR, OP_FALSE) != (_LIT, _AND, _OR, _FALSE):
    raise ImportError("ckn._rulefilter: node operations differ from ckn._rule_formula's")


cdef bint _holds(const int32_t* nodes, Py_ssize_t i, const uint64_t* found) noexcept nogil:
    """Node ``i`` (and its subtree) over the bit set of the literals found."""
    cdef int32_t op = nodes[3 * i], arg = nodes[3 * i + 1]
    cdef Py_ssize_t j, end
    if op == _LIT:
        return (found[arg >> 6] >> (arg & 63)) & 1
    if op == _FALSE:
        return False
    end = nodes[3 * i + 2]
    j = i + 1
    while j < end:
        if _holds(nodes, j, found) != (op == _AND):
            return op != _AND   # AND: a false part; OR: a true part
        j = nodes[3 * j + 2]
    return op == _AND


cdef void _walk(const int32_t* next, const int32_t* literal_at, const uint8_t* classes,
                Py_ssize_t width, const uint8_t* d, Py_ssize_t n, uint64_t* found) noexcept nogil:
    """OR into ``found`` the literals of the trie that occur in the ``n`` ASCII bytes at ``d``:
    a walk from every position, ending at a byte in no literal or a missing edge."""
    cdef Py_ssize_t i, j, node, literal
    cdef uint8_t c
    for i in range(n):
        node = 0
        j = i
        while j < n:
            c = classes[d[j]]
            if c == 0:
                break
            node = next[node * width + c]
            if node == 0:
                break
            literal = literal_at[node]
            if literal >= 0:
                found[literal >> 6] |= 1ULL << (literal & 63)
            j += 1


cdef class LiteralIndex:
    """The literals of every formula made with this index; see the module docstring."""

    # attributes: ckn/_rulefilter.pxd

    def __cinit__(self):
        self.ids = {}
        self.literals = []
        self.built = False
        self.frozen = False
        self.kept = [None] * _KEPT
        self.victim = 0

    def __dealloc__(self):
        free(self.next)
        free(self.literal_at)
        free(self.found)

    cpdef list add(self, list literals):
        """The numbers of ``literals`` (ASCII bytes of 1 to MAX_LITERAL bytes), new ones
        appended; the trie is rebuilt on the next lookup."""
        cdef bytes word
        cdef list numbers = []
        for word in literals:
            if not word.isascii():
                raise ValueError("LiteralFormula: literals must be ASCII")
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
        cdef Py_ssize_t total = 0, n_trie = 1, k, node, child
        cdef bytes word
        cdef int c
        free(self.next)
        free(self.literal_at)
        free(self.found)
        self.next = self.literal_at = NULL
        self.found = NULL
        self.kept = [None] * _KEPT
        memset(self.classes, 0, sizeof(self.classes))
        self.width = 1
        for word in self.literals:
            total += len(word)
            for c in word:                  # ASCII: 0..127
                if self.classes[c] == 0:
                    self.classes[c] = <uint8_t>self.width
                    self.width += 1
        self.next = <int32_t*>calloc((total + 1) * self.width, sizeof(int32_t))
        self.literal_at = <int32_t*>malloc((total + 1) * sizeof(int32_t))
        self.found_words = (len(self.literals) >> 6) + 1
        self.found = <uint64_t*>malloc(_KEPT * self.found_words * sizeof(uint64_t))
        if self.next == NULL or self.literal_at == NULL or self.found == NULL:
            raise MemoryError()
        self.literal_at[0] = -1
        for k, word in enumerate(self.literals):
            node = 0
            for c in word:
                child = self.next[node * self.width + self.classes[c]]
                if child == 0:
                    child = n_trie
                    n_trie += 1
                    self.literal_at[child] = -1
                    self.next[node * self.width + self.classes[c]] = <int32_t>child
                node = child
            self.literal_at[node] = <int32_t>k
        self.built = True
        return 0

    cdef const uint64_t* found_in(self, str view) except NULL:
        """The bit set of the literals that occur in the ASCII ``view``."""
        if not self.built:
            self._build()
        cdef Py_ssize_t k
        for k in range(_KEPT):
            if view is self.kept[k]:
                return self.found + k * self.found_words
        k = self.victim
        self.victim = (k + 1) % _KEPT
        cdef uint64_t* found = self.found + k * self.found_words
        memset(found, 0, self.found_words * sizeof(uint64_t))
        _walk(self.next, self.literal_at, self.classes, self.width,
              <const uint8_t*>PyUnicode_DATA(view), PyUnicode_GET_LENGTH(view), found)
        self.kept[k] = view
        return found


cdef int _copy_program(int32_t* out, nodes, list numbers, str who) except -1:
    """Copy the ``len(nodes) // 3`` node triples to ``out``, each literal node's argument
    renumbered through ``numbers`` (``LiteralIndex.add``), checking that every argument names
    a literal and every end lies after its node and within the program."""
    cdef Py_ssize_t i, n_nodes = len(nodes) // 3
    for i in range(3 * n_nodes):
        out[i] = nodes[i]
    for i in range(n_nodes):
        if out[3 * i] == _LIT:
            if not 0 <= out[3 * i + 1] < len(numbers):
                raise ValueError(f"{who}: a literal node names no literal")
            out[3 * i + 1] = numbers[out[3 * i + 1]]
        if not i < out[3 * i + 2] <= n_nodes:
            raise ValueError(f"{who}: a node's end is out of order")
    return 0


cdef class LiteralFormula:
    """One rule's formula over the literals of a LiteralIndex; see the module docstring."""

    cdef LiteralIndex index
    cdef int32_t* nodes
    cdef Py_ssize_t n_nodes
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
        _copy_program(self.nodes, nodes, numbers, "LiteralFormula")

    def __dealloc__(self):
        free(self.nodes)

    cpdef bint check(self, str view):
        """Whether the formula holds on ``view`` (True for a view that is not ASCII)."""
        if not PyUnicode_IS_ASCII(view):
            return True
        return _holds(self.nodes, 0, self.index.found_in(view))

    def search(self, str view):
        """``matcher(view)`` when the formula holds on ``view``, else None (no match)."""
        if not self.check(view):
            return None
        return self.matcher(view)


cdef void formulas_found(const RuleBitFormulas* f, const uint8_t* view, Py_ssize_t n,
                         uint64_t* found) noexcept nogil:
    _walk(f.next, f.literal_at, f.classes, f.width, view, n, found)


cdef void formulas_narrow(const RuleBitFormulas* f, const uint64_t* found, uint64_t* lo,
                          uint64_t* hi) noexcept nogil:
    cdef uint64_t word, dead
    cdef Py_ssize_t half, bit, p
    for half in range(2):
        word = (lo[0] if half == 0 else hi[0]) & f.covered[half]
        dead = 0
        while word:
            bit = 64 * half + _lowest_bit(word)
            word &= word - 1
            for p in range(f.first[bit], f.first[bit + 1]):
                if _holds(f.nodes + 3 * f.programs[p], 0, found):
                    break
            else:
                dead |= 1ULL << (bit - 64 * half)
        if half == 0:
            lo[0] &= ~dead
        else:
            hi[0] &= ~dead


cdef class FormulaBits:
    """The formulas of the rules behind each rule bit of ``ckn._linescan``, over one
    ``LiteralIndex``, for the compiled pass to drop the rule bits of a segment whose views hold
    none of their rules' formulas (``formulas_found``, ``formulas_narrow``; read without the
    GIL).

    ``programs[b]`` lists the programs (``ckn._rule_formula.program``: ``(literals, nodes)``,
    or None for a rule with no formula) of the rules behind rule bit ``b`` (0..125); a bit with
    a None, or with no list, is never dropped. The index gets every literal and is then frozen:
    its trie stays as it is while this object lives."""

    # attributes: ckn/_rulefilter.pxd

    def __cinit__(self, LiteralIndex index not None, list programs not None):
        cdef Py_ssize_t b, total_nodes = 0, count = 0, k, at = 0
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
        if self.nodes == NULL or self.programs == NULL:
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
                _copy_program(self.nodes + 3 * at, nodes, index.add(list(literals)),
                              "FormulaBits")
                at += len(nodes) // 3
                k += 1
            self.data.covered[b >> 6] |= 1ULL << (b & 63)
        if not index.built:
            index._build()
        index.frozen = True
        self.data.next = index.next
        self.data.literal_at = index.literal_at
        self.data.classes = index.classes
        self.data.width = index.width
        self.data.found_words = index.found_words
        self.data.nodes = self.nodes
        self.data.programs = self.programs
        self.quoted = <uint64_t*>calloc(index.found_words, sizeof(uint64_t))
        if self.quoted == NULL:
            raise MemoryError()
        for k, word in enumerate(index.literals):
            if word == b" " or b"'" in word or b'" ' in word or b' "' in word:
                self.quoted[k >> 6] |= 1ULL << (k & 63)
        self.data.quoted = self.quoted

    def __dealloc__(self):
        free(self.nodes)
        free(self.programs)
        free(self.quoted)

    def narrow(self, bytes view not None, mask):
        """``mask`` (an int of rule bits, 128-bit) without the covered bits whose programs
        all fail on the ASCII bytes ``view`` (for tests; the compiled pass calls the C
        functions)."""
        if not view.isascii():
            raise ValueError("FormulaBits.narrow: the view must be ASCII")
        cdef uint64_t lo = mask & 0xFFFFFFFFFFFFFFFF, hi = mask >> 64
        cdef uint64_t* found = <uint64_t*>calloc(self.data.found_words, sizeof(uint64_t))
        if found == NULL:
            raise MemoryError()
        formulas_found(&self.data, <const uint8_t*><const char*>view, len(view), found)
        formulas_narrow(&self.data, found, &lo, &hi)
        free(found)
        return lo | (<object>hi) << 64
