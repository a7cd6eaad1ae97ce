"""A rule's literal formula, checked in C before its regex runs (``ckn._rule_formula``).

``LiteralFormula(literals, nodes, search)`` holds one rule's formula: its literals in a trie
(byte classes: the characters of its literals, every other byte ends a walk) and its nodes in
prefix order. ``check(view)`` finds which literals occur in an ASCII view — a walk of the trie
from every position, at most ``MAX_LITERAL`` steps each, so O(len(view) · MAX_LITERAL) and
usually a step or two per position — then evaluates the formula over them, short-circuiting;
``search(view)`` returns ``search(view)`` (the rule's matcher) when the formula holds and None
when it does not, since then the regex cannot match. A view that is not ASCII is passed to the
matcher unchecked. Everything runs holding the GIL (a few microseconds; the object's scratch
bit set is not shared across threads).
"""

from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH
from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from ckn._rule_formula import MAX_LITERAL, OP_AND, OP_FALSE, OP_LITERAL, OP_OR

__all__ = ["LiteralFormula"]

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)

cdef enum:  # the node operations of ckn._rule_formula.program
    _LIT = 0
    _AND = 1
    _OR = 2
    _FALSE = 3

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


cdef class LiteralFormula:
    """One rule's formula over its literals; see the module docstring."""

    cdef int32_t* next          # trie: next[node * width + class], 0 = no edge (0 is the root)
    cdef int32_t* literal_at    # per node: the literal that ends there, or -1
    cdef uint8_t classes[128]   # per ASCII byte: its class (1..width-1), 0 = in no literal
    cdef Py_ssize_t width
    cdef int32_t* nodes
    cdef Py_ssize_t n_nodes
    cdef uint64_t* found        # scratch bit set of the literals found
    cdef Py_ssize_t found_words
    cdef object matcher

    def __cinit__(self, list literals, nodes, matcher):
        cdef Py_ssize_t n_trie = 1, k, i, node, c, child, total = 0
        cdef bytes word
        self.matcher = matcher
        memset(self.classes, 0, sizeof(self.classes))
        self.width = 1
        for word in literals:
            if not word.isascii():
                raise ValueError("LiteralFormula: literals must be ASCII")
            total += len(word)
            for c in word:                  # 0..127 from here on
                if self.classes[c] == 0:
                    self.classes[c] = <uint8_t>self.width
                    self.width += 1
        self.next = <int32_t*>calloc((total + 1) * self.width, sizeof(int32_t))
        self.literal_at = <int32_t*>malloc((total + 1) * sizeof(int32_t))
        self.n_nodes = len(nodes) // 3
        self.nodes = <int32_t*>malloc((3 * self.n_nodes + 1) * sizeof(int32_t))
        self.found_words = (len(literals) >> 6) + 1
        self.found = <uint64_t*>malloc(self.found_words * sizeof(uint64_t))
        if (self.next == NULL or self.literal_at == NULL or self.nodes == NULL
                or self.found == NULL):
            raise MemoryError()
        self.literal_at[0] = -1
        for k, word in enumerate(literals):
            if not 0 < len(word) <= MAX_LITERAL:
                raise ValueError("LiteralFormula: literals must have 1 to MAX_LITERAL bytes")
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
        for i in range(3 * self.n_nodes):
            self.nodes[i] = nodes[i]
        if self.n_nodes == 0:
            raise ValueError("LiteralFormula: no nodes")
        for i in range(self.n_nodes):
            if self.nodes[3 * i] == _LIT and not 0 <= self.nodes[3 * i + 1] < len(literals):
                raise ValueError("LiteralFormula: a literal node names no literal")
            if not i < self.nodes[3 * i + 2] <= self.n_nodes:
                raise ValueError("LiteralFormula: a node's end is out of order")

    def __dealloc__(self):
        free(self.next)
        free(self.literal_at)
        free(self.nodes)
        free(self.found)

    cpdef bint check(self, str view):
        """Whether the formula holds on ``view`` (True for a view that is not ASCII)."""
        if not PyUnicode_IS_ASCII(view):
            return True
        cdef const uint8_t* d = <const uint8_t*>PyUnicode_DATA(view)
        cdef Py_ssize_t n = PyUnicode_GET_LENGTH(view), i, j, node, literal
        cdef Py_ssize_t width = self.width
        cdef const int32_t* next = self.next
        cdef uint8_t c
        memset(self.found, 0, self.found_words * sizeof(uint64_t))
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
                literal = self.literal_at[node]
                if literal >= 0:
                    self.found[literal >> 6] |= 1ULL << (literal & 63)
                j += 1
        return _holds(self.nodes, 0, self.found)

    def search(self, str view):
        """``matcher(view)`` when the formula holds on ``view``, else None (no match)."""
        if not self.check(view):
            return None
        return self.matcher(view)
