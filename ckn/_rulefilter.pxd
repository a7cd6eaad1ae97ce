# Internal C interface of ckn._rulefilter for ckn._linescan (private: no compatibility promise,
# unlike the public .pxd files of docs/c-api.md): the rules' literal formulas per rule bit,
# checked on ASCII byte views without the GIL.
from libc.stdint cimport int32_t, uint8_t, uint64_t

ctypedef struct LiteralAutomaton:
    const int32_t* next          # Aho-Corasick rows of stride int32: next[row + class] is the row
                                 # (state * stride) one byte leads to (class 0: the root's, 0);
                                 # next[row + stride - 1] is 1 + the longest literal ending at
                                 # the state (its own or a suffix's), 0 = none
    const int32_t* suffix        # per literal: 1 + the longest literal that is a proper suffix
                                 # of it, 0 = none
    const int32_t* length        # per literal: its length in bytes
    const uint8_t* classes       # per byte: its class, 0 = in no literal
    Py_ssize_t stride            # int32 per row: one per class, then the literal
    Py_ssize_t literals          # how many literals it finds
    Py_ssize_t longest           # the longest literal's length in bytes (at least 1)

ctypedef struct RuleBitFormulas:
    LiteralAutomaton automaton   # the LiteralIndex's
    Py_ssize_t found_words       # uint64 words of a found set's bits (one bit per literal)
    Py_ssize_t found_size        # uint64 words of a found set: found bits, placed bits, per
                                 # literal its first end, then its last start, then the walk's
                                 # scratch (found_set_ready)
    const int32_t* nodes         # every program's (op, argument, end) triples, one after another
    const Py_ssize_t* programs   # where each program starts in nodes
    const uint8_t* ordered       # per program: it has a SEQ node (its order is checked)
    uint64_t ordered_bits[2]     # rule bits (lo, hi) with an ordered program
    Py_ssize_t first[127]        # rule bit b's programs: programs[first[b] : first[b + 1]]
    uint64_t covered[2]          # rule bits (lo, hi) whose every rule has a formula
    const uint64_t* quoted       # found bits of the literals that can span a blanked mention's
                                 # edge: " ", those with an apostrophe, and those with a double
                                 # quote next to a space (ckn._linescan._quoted_checked)
    const uint64_t* literal_bits  # per literal, the rule bits (lo, hi) of the programs whose
                                 # gate (_gate) holds it: a covered bit none of whose programs'
                                 # gates meets the found set fails
    uint64_t ungated[2]          # rule bits (lo, hi) with a program that has no gate

# Clear the covered rule bits of (lo, hi) none of whose programs holds over the literals found
# in the count views (views[k]: sizes[k] bytes, UTF-8 for text) together, plus those of the bit
# set extra (found_words words) when not NULL; with ordered, a program's SEQ nodes must also
# hold in order over the literals' places, each literal at its earliest end and latest start in
# any view (taken only when a bit with an ordered program is left). found: found_size words of
# scratch.
# O(total size + literal occurrences).
cdef void formulas_check(const RuleBitFormulas* f, const uint8_t* const* views,
                         const Py_ssize_t* sizes, Py_ssize_t count, const uint64_t* extra,
                         bint ordered, uint64_t* found, uint64_t* lo, uint64_t* hi) noexcept nogil

# Make found_size words at found a found set formulas_check can use: its walk scratch is
# cleared once (each walk leaves it as it found it).
cdef void found_set_ready(const RuleBitFormulas* f, uint64_t* found) noexcept nogil

cdef class LiteralIndex:
    cdef dict ids               # literal (bytes) -> its number
    cdef list literals
    cdef bint built             # the trie holds every literal
    cdef bint frozen            # a FormulaBits reads the trie: no literal may be added
    cdef uint8_t classes[256]   # per byte: its class (1..width-1), 0 = in no literal
    cdef LiteralAutomaton automaton  # its arrays are owned here (_free_automaton)
    cdef uint64_t* found        # _KEPT found sets: the literals found in kept[k]
    cdef Py_ssize_t found_words
    cdef Py_ssize_t found_size
    cdef unsigned placed        # bit k: kept[k]'s found set has its places
    cdef list kept              # the views held, so that no other string has their identity
    cdef Py_ssize_t victim      # the slot to refill next

    cpdef list add(self, list literals)
    cdef void _free_automaton(self) noexcept
    cdef int _build(self) except -1
    cdef const uint64_t* found_in(self, str view, bint place) except NULL

cdef class FormulaBits:
    cdef RuleBitFormulas data
    cdef LiteralIndex index
    cdef int32_t* nodes
    cdef Py_ssize_t* programs
    cdef uint8_t* ordered
    cdef uint64_t* quoted
    cdef uint64_t* found        # narrow's found set, made on its first call (the GIL guards it)
    cdef uint64_t* literal_bits
