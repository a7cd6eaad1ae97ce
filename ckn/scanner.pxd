# Public C API of ckn.scanner: spec §4 terms as spec §7 term hashes, in one pass over the text.
#
#     from ckn.scanner cimport scanner_ascii_terms, scanner_ascii_max_terms
#
# `noexcept nogil`: never raises, never touches Python objects, never allocates; writes only to
# the caller's buffers. Changing a declaration here breaks binary compatibility (docs/c-api.md).
from ckn.typedefs cimport hash_t

# Upper bound on the number of terms of an n-byte ASCII text: (n + 1) // 2 (n >= 0).
cdef Py_ssize_t scanner_ascii_max_terms(Py_ssize_t n) noexcept nogil

# FNV-1a-64 hashes of spec §4's terms of the pure-ASCII text data[0..n), in text order, written
# to out; returns how many. For ASCII, NFKC and invisible-character removal change nothing,
# casefold is lowercase and `\w` is [A-Za-z0-9_], so a term is a maximal run of those bytes,
# lowercased. Preconditions: every byte < 128 (a byte >= 128 is treated as a separator, which
# is *not* SPEC behaviour for UTF-8 text); n >= 0; data may be NULL only when n == 0; out
# holds scanner_ascii_max_terms(n) slots.
cdef Py_ssize_t scanner_ascii_terms(const unsigned char* data, Py_ssize_t n,
                                    hash_t* out) noexcept nogil
