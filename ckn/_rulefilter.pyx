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
unchecked. Everything runs holding the GIL (microseconds; the index's scratch is not shared
across threads without it).
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH
from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from ckn._rule_formula import MAX_LITERAL, OP_AND, OP_FALSE, OP_LITERAL, OP_OR

__all__ = ["LiteralFormula", "LiteralIndex"]

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)

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


cdef class LiteralIndex:
    """The literals of every formula made with this index; see the module docstring."""

    cdef dict ids               # literal (bytes) -> its number
    cdef list literals
    cdef bint built             # the trie holds every literal
    cdef int32_t* next          # trie: next[node * width + class], 0 = no edge (0 is the root)
    cdef int32_t* literal_at    # per node: the literal that ends there, or -1
    cdef uint8_t classes[128]   # per ASCII byte: its class (1..width-1), 0 = in no literal
    cdef Py_ssize_t width
    cdef uint64_t* found        # _KEPT bit sets: the literals found in kept[k]
    cdef Py_ssize_t found_words
    cdef list kept              # the views held, so that no other string has their identity
    cdef Py_ssize_t victim      # the slot to refill next

    def __cinit__(self):
        self.ids = {}
        self.literals = []
        self.built = False
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
        cdef const uint8_t* d = <const uint8_t*>PyUnicode_DATA(view)
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(view), i, j, node, literal
        cdef Py_ssize_t width = self.width
        cdef const int32_t* next = self.next
        cdef const int32_t* literal_at = self.literal_at
        cdef uint64_t* found = self.found + k * self.found_words
        cdef uint8_t c
        memset(found, 0, self.found_words * sizeof(uint64_t))
        for i in range(n):
            node = 0
            j = i
            while j < n:
                c = self.classes[d[j]]
                if c == 0:
                    break
                node = next[node * width + c]
                if node == 0:
                    break
                literal = literal_at[node]
                if literal >= 0:
                    found[literal >> 6] |= 1ULL << (literal & 63)
                j += 1
        self.kept[k] = view
        return found


cdef class LiteralFormula:
    """One rule's formula over the literals of a LiteralIndex; see the module docstring."""

    cdef LiteralIndex index
    cdef int32_t* nodes
    cdef Py_ssize_t n_nodes
    cdef object matcher

    def __cinit__(self, LiteralIndex index not None, list literals, nodes, matcher):
        cdef Py_ssize_t i
        cdef list numbers = index.add(literals)
        self.index = index
        self.matcher = matcher
        self.n_nodes = len(nodes) // 3
        if self.n_nodes == 0:
            raise ValueError("LiteralFormula: no nodes")
        self.nodes = <int32_t*>malloc(3 * self.n_nodes * sizeof(int32_t))
        if self.nodes == NULL:
            raise MemoryError()
        for i in range(3 * self.n_nodes):
            self.nodes[i] = nodes[i]
        for i in range(self.n_nodes):
            if self.nodes[3 * i] == _LIT:
                if not 0 <= self.nodes[3 * i + 1] < len(numbers):
                    raise ValueError("LiteralFormula: a literal node names no literal")
                self.nodes[3 * i + 1] = numbers[self.nodes[3 * i + 1]]
            if not i < self.nodes[3 * i + 2] <= self.n_nodes:
                raise ValueError("LiteralFormula: a node's end is out of order")

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
