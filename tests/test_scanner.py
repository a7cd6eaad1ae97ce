"""ckn.scanner (one text pass), the compiled BM25, cosine and embedding validation paths:
each must equal its pure-Python reference exactly, bit for bit."""

import array
import math
import random
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ckn import CknTypeError, CknValueError, similarity
from ckn import pool as pool_module
from ckn.bm25 import bm25_scores, bm25_scores_hashed
from ckn.errors import InputError, InputTypeError
from ckn.minhash import fnv1a64, term_hashes
from ckn.scanner import TermHashes, scan, term_counts, text_hashes
from ckn.terms import terms
from simd_paths import SIMD_LEVELS, json_with_env

# Characters that exercise every branch of spec §4: ASCII word/non-word, `_`, digits, CJK
# (Han, Hiragana, Katakana, halfwidth Katakana, extension B, compatibility ideographs),
# fullwidth forms, ligatures, superscripts, invisible characters, combining marks, ß, Turkish
# İ/ı, Greek sigma, Hangul, Arabic-Indic digits, emoji + ZWJ, surrogates, Unicode Tags.
SPECIAL = (
    "aZ09_ -.,;:!?\n\t\r'\"()"
    "東京都タカナひらがなｶﾀｶﾅ𠀋𠀌丽"
    "ＡＢＣ１２３　ﬁﬂ²³½"
    "\u200b\u200c\u200d\u2060\ufeff\u00ad"
    "e\u0301\u0338\u0308<=>"
    "ßẞİıΣσςΐ"
    "한국어٣٤"
    "😀\U0001f3fb\u2764\ufe0f"
    "\ud800\udfff\U000e0041\U000e007f"
    "ǅⅫ①"
)
TEXT = st.text(alphabet=st.sampled_from(SPECIAL), max_size=80)
ANY_TEXT = st.text(max_size=80)  # hypothesis' full Unicode, surrogates included


def reference_hashes(text):
    return list(term_hashes(terms(text)))


# --- the scanner ------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "", "   ", "Durable Object SQLite", "ＤＵＲＡＢＬＥ　Ｏｂｊｅｃｔ １２３", "ﬁle ﬂow", "x²",
    "Straße STRASSE", "ΣΊΣΥΦΟΣ", "ig\u200bnore", "soft\u00adhyphen", "api_key=42; v2.0",
    "abc東京タ", "東京都", "東", "a東b京c", "Python3の本", "𠀋𠀌x", "한국어 text", "İstanbul",
    "e\u0301t\u00e9", "≠ a\u0338", "😀a_b", "\ud800ab", "ｶﾀｶﾅ", "ab\U000e0041cd",
])
def test_known_texts(text):
    assert list(text_hashes(text)) == reference_hashes(text)


def test_spec_vector():
    assert list(text_hashes("Durable")) == [0xA26817D891FF02E8]
    assert list(text_hashes("abc東京タ")) == [fnv1a64(t) for t in ("abc", "東京", "京タ")]


@given(TEXT)
def test_equals_terms_then_hashes(text):
    assert list(text_hashes(text)) == reference_hashes(text)


@given(ANY_TEXT)
def test_equals_terms_then_hashes_on_any_unicode(text):
    assert list(text_hashes(text)) == reference_hashes(text)


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=200))
def test_ascii_fast_path(text):
    assert list(text_hashes(text)) == reference_hashes(text)


# Words of every length around the AVX2 path's 8-byte step and 64-byte blocks, in all cases.
ASCII_WORD = st.text(alphabet="aAzZmQ09_", min_size=1, max_size=20)
ASCII_GAP = st.text(alphabet=" .,-\n\t@[`{\x7f\x00", min_size=1, max_size=3)


@given(st.lists(st.tuples(ASCII_WORD, ASCII_GAP), max_size=40), st.booleans())
def test_ascii_words_of_every_length(pieces, open_end):
    text = "".join(w + g for w, g in pieces)
    if open_end and pieces:
        text = text[: -len(pieces[-1][1])]  # the text ends inside a word
    assert list(text_hashes(text)) == reference_hashes(text)


def test_ascii_word_boundaries_at_every_offset():
    # A word of 1..20 bytes after 0..70 separators, at the very end of the text and followed
    # by more text: starts and ends on both sides of every 8- and 64-byte boundary.
    # Each word byte takes every edge value ('A', 'Z', 'a', 'z', '0', '9', '_') somewhere.
    for length in range(1, 21):
        for shift in range(7):
            word = "".join("AZaz09_"[(i + shift) % 7] for i in range(length))
            for pad in range(71):
                for text in (" " * pad + word, "@" * pad + word + "[x", word + "`" * pad + word):
                    assert list(text_hashes(text)) == reference_hashes(text), (length, pad, text)
    long_word = "Q" * 70 + "z" * 70
    assert list(text_hashes(long_word)) == [fnv1a64(long_word.lower())]


def test_ascii_simd_and_portable_paths_agree():
    code = (
        "import json, random\n"
        "from ckn.scanner import SIMD, scan\n"
        "from ckn.minhash import term_hashes\n"
        "from ckn.terms import terms\n"
        "rnd = random.Random(5)\n"
        "alpha = 'abcXYZ_09' * 4 + ' .,-\\n@[`{'\n"
        "texts = [''.join(rnd.choice(alpha) for _ in range(rnd.randrange(0, 300)))"
        " for _ in range(600)]\n"
        "texts += ['w' * k + ' ' + 'V' * (k % 13) for k in range(200)]\n"
        "texts += [' '.join('Ab9_'[i % 4] * (1 + (i * 7) % 19) for i in range(k)) for k in range(60)]\n"
        "th = scan(texts)\n"
        "ref = [h for t in texts for h in term_hashes(terms(t))]\n"
        "print(json.dumps([SIMD, list(th.offsets), [str(h) for h in th.values],"
        " list(th.values) == ref]))\n")
    # AVX-512 (with VBMI2 where the CPU has it), AVX-512 without VBMI2 (CKN_NO_VBMI2=1, as on
    # CPUs that lack it), AVX2 (CKN_NO_AVX512=1), portable (CKN_NO_SIMD=1)
    levels = (SIMD_LEVELS[0], {"CKN_NO_VBMI2": "1"}) + SIMD_LEVELS[1:]
    (widest, *a), (no_vbmi2, *w), (capped, *b), (name, *portable) = json_with_env(code, levels)
    assert widest in ("avx512-vbmi2", "avx512", "avx2", "portable")
    assert no_vbmi2 in ("avx512", "avx2", "portable") and capped in ("avx2", "portable")
    assert name == "portable"
    assert a == w == b == portable and a[2] is True and len(a[1]) > 10_000


@given(st.lists(TEXT, max_size=8))
def test_scan_is_csr_of_text_hashes(texts):
    th = scan(texts)
    assert isinstance(th, TermHashes)
    assert len(th.offsets) == len(texts) + 1 and th.offsets[0] == 0
    for k, text in enumerate(texts):
        assert list(th.values[th.offsets[k]:th.offsets[k + 1]]) == reference_hashes(text)


def test_scan_accepts_iterables_and_str_subclasses():
    class Text(str):
        pass

    th = scan(t for t in [Text("Ab c"), "d"])
    assert list(th.values) == [fnv1a64(t) for t in ("ab", "c", "d")]


def test_term_counts():
    counts, length = term_counts("b a B a a")
    assert counts == {fnv1a64("a"): 3, fnv1a64("b"): 2} and length == 5
    assert term_counts("") == ({}, 0)


@pytest.mark.parametrize("bad, call", [
    (None, scan), ("text", scan), (b"text", scan), ([1], scan), (["ok", None], scan),
    (None, text_hashes), (b"x", text_hashes), (3, term_counts),
])
def test_type_errors(bad, call):
    with pytest.raises(CknTypeError):
        call(bad)


def test_scan_error_names_the_index():
    with pytest.raises(CknTypeError, match=r"texts\[1\]: expected str, got int"):
        scan(["a", 1])


def test_large_mixed_pool_and_threads():
    rnd = random.Random(7)
    words = ["durable", "object", "東京都", "Straße", "ｶﾀｶﾅ", "api_key", "x²", "İ"]
    texts = [" ".join(rnd.choice(words) for _ in range(rnd.randrange(300))) for _ in range(200)]
    want = [reference_hashes(t) for t in texts]
    results = []

    def work():
        th = scan(texts)
        results.append([list(th.values[th.offsets[k]:th.offsets[k + 1]])
                        for k in range(len(texts))])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want] * 4


def test_scan_of_a_pool_above_the_nogil_threshold_keeps_every_hash():
    # > 65,536 term hashes, scanned with the GIL released
    rnd = random.Random(11)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"]
    texts = [" ".join(rnd.choice(words) for _ in range(rnd.randrange(100, 200))) + f" w{k}"
             for k in range(600)]
    th = scan(texts)
    assert len(th.values) > 65_536
    assert list(th.offsets[:3]) == [0, len(text_hashes(texts[0])),
                                    len(text_hashes(texts[0])) + len(text_hashes(texts[1]))]
    assert list(th.values) == [h for t in texts for h in text_hashes(t)]


@pytest.mark.parametrize("dense_first", [True, False])
def test_scan_grows_its_result_when_texts_are_dense_in_terms(dense_first):
    # The result starts with room for a term per 4 code points and grows (with the GIL held)
    # when the texts' terms do not fit: one-letter words, before or after plain text, ASCII
    # and not (a text whose worst case, a term every other one, outgrows the room left is
    # scanned aside first).
    dense = ["a " * 5000, "b" + " c" * 3000, "é " * 2000, "x"]
    plain = ["documentation words " * 40, ""]
    texts = dense + plain if dense_first else plain + dense
    th = scan(texts)
    assert len(th.values) > sum(map(len, texts)) // 4 + 16
    assert [list(th.values[th.offsets[k]:th.offsets[k + 1]]) for k in range(len(texts))] == [
        reference_hashes(t) for t in texts]


# --- BM25 over term hashes --------------------------------------------------------------------

WORD = st.sampled_from(["a", "b", "c", "d", "e", "東京", "ß", "x1", "Zz"])
DOC = st.lists(WORD, max_size=15).map(" ".join)
QUERY_TEXT = st.lists(st.sampled_from(["a", "b", "c", "東京", "zz", "SS", "x1"]), max_size=6)
K1 = st.floats(min_value=0.0, max_value=5.0) | st.sampled_from([0, 1, 2])
B = st.floats(min_value=0.0, max_value=1.0) | st.sampled_from([0, 1])


@given(st.lists(DOC | TEXT, max_size=10), QUERY_TEXT.map(" ".join) | TEXT, K1, B)
def test_bm25_hashed_equals_python_bit_for_bit(docs, query, k1, b):
    want = bm25_scores([terms(d) for d in docs], terms(query), k1=k1, b=b)
    got = bm25_scores_hashed(scan(docs), text_hashes(query), k1=k1, b=b)
    assert got == want  # exact equality, no tolerance


def test_bm25_hashed_large_pool_bit_for_bit():
    rnd = random.Random(11)
    vocab = [f"w{i}" for i in range(3000)]
    docs = [" ".join(rnd.choice(vocab) for _ in range(rnd.randrange(1, 400))) for _ in range(500)]
    query = " ".join(rnd.choice(vocab) for _ in range(12)) + " " + docs[3].split()[0]
    assert (bm25_scores_hashed(scan(docs), text_hashes(query))
            == bm25_scores([terms(d) for d in docs], terms(query)))


def test_bm25_hashed_edge_cases():
    assert bm25_scores_hashed(scan([]), text_hashes("a")) == []
    assert bm25_scores_hashed(scan(["", "..."]), text_hashes("a")) == [0.0, 0.0]
    assert bm25_scores_hashed(scan(["a b"]), []) == [0.0]
    assert bm25_scores_hashed(scan(["a a b", "c"]), [fnv1a64("a")] * 3) == bm25_scores(
        [["a", "a", "b"], ["c"]], ["a"])


@pytest.mark.parametrize("kwargs", [{"k1": -1}, {"k1": math.inf}, {"b": 1.5}, {"b": True},
                                    {"k1": "1"}])
def test_bm25_hashed_rejects_bad_parameters(kwargs):
    with pytest.raises(CknValueError):
        bm25_scores_hashed(scan(["a"]), text_hashes("a"), **kwargs)


def test_bm25_hashed_accepts_lists_and_checks_offsets():
    th = scan(["a b", "b"])
    want = bm25_scores_hashed(th, text_hashes("b"))
    assert bm25_scores_hashed((list(th.values), list(th.offsets)), list(text_hashes("b"))) == want
    for offsets in ([0, 3, 2], [0, 2, 4], [-1, 1, 3], [1, 0, 3]):
        with pytest.raises(CknValueError, match="offsets"):
            bm25_scores_hashed((th.values, offsets), text_hashes("b"))
    with pytest.raises(CknTypeError):
        bm25_scores_hashed(th.values, text_hashes("b"))


def test_bm25_hashed_rejects_a_str_query():
    with pytest.raises(CknTypeError):
        bm25_scores_hashed(scan(["a"]), "a")


# --- cosine: compiled path == Python path, bit for bit ----------------------------------------

COMPONENT = st.floats(allow_nan=False, allow_infinity=False, width=64) | st.sampled_from(
    [0.0, -0.0, 1e-300, 1e300, 5e-324])


def python_cosine_scores(query, embeddings):
    saved = similarity._columns
    similarity._columns = None
    try:
        return similarity.cosine_scores(query, embeddings)
    finally:
        similarity._columns = saved


@st.composite
def query_and_embeddings(draw):
    d = draw(st.integers(0, 12))
    vec = st.lists(COMPONENT, min_size=d, max_size=d)
    odd = st.lists(COMPONENT, max_size=14)
    q = draw(vec)
    embeddings = draw(st.lists(st.one_of(vec, vec, vec, st.none(), odd), max_size=6))
    return q, embeddings


def outcome(f, *args):
    try:
        return ("ok", f(*args))
    except (CknValueError, CknTypeError) as exc:
        return (type(exc), str(exc))


@given(query_and_embeddings(), st.sampled_from(["list", "array", "mixed"]))
def test_cosine_fast_path_equals_python(data, form):
    q, embeddings = data
    if form in ("array", "mixed"):
        q = array.array("d", q)
        embeddings = [e if e is None or (form == "mixed" and k % 2) else array.array("d", e)
                      for k, e in enumerate(embeddings)]
    got = outcome(similarity.cosine_scores, q, embeddings)
    want = outcome(python_cosine_scores, q, embeddings)
    assert repr(got) == repr(want)  # repr: -0.0 vs 0.0 and exact digits


def test_cosine_fast_path_falls_back_for_other_inputs():
    q = [1.0, 2.0, 3.0]
    cases = [lambda: [(1, 2, 3)], lambda: [[1, 2, 3]], lambda: [[1.0, float("nan"), 0.0]],
             lambda: [array.array("f", [1, 2, 3])], lambda: [[1e-200, 1e-200, 1e-200]],
             lambda: [iter([1.0, 2.0, 3.0])], lambda: [[1.0, 2.0]], lambda: ["abc"],
             lambda: [[1.0, 2.0, 3.0], [1.0, 2.0]], lambda: [None, [1.0, True, 3.0]]]
    for make in cases:
        assert repr(outcome(similarity.cosine_scores, q, make())) == repr(
            outcome(python_cosine_scores, q, make()))
    assert similarity.cosine_scores((1.0, 0.0), [[1.0, 0.0]]) == [1.0]
    assert similarity.cosine_scores((x for x in [1.0, 0.0]), [[1.0, 0.0]]) == [1.0]


def test_cosine_numpy_float64():
    np = pytest.importorskip("numpy")
    rnd = np.random.default_rng(3)
    q = rnd.normal(size=64)
    e = rnd.normal(size=(5, 64))
    assert similarity.cosine_scores(q, list(e)) == python_cosine_scores(q, list(e))
    strided = rnd.normal(size=(64, 2))[:, 0]  # not contiguous: the Python path
    assert similarity.cosine_scores(q, [strided]) == python_cosine_scores(q, [strided])
    assert similarity.cosine_scores(q.astype(np.float32), list(e)) == python_cosine_scores(
        q.astype(np.float32), list(e))


# --- pool validation: compiled one-pass path == Python path -----------------------------------

def python_vector(path, x):
    saved = pool_module._columns
    pool_module._columns = None
    try:
        return pool_module._vector(path, x)
    finally:
        pool_module._columns = saved


VALUE = st.one_of(st.floats(), st.integers(-2**1100, 2**1100), st.booleans(), st.none(),
                  st.text(max_size=2))


@given(st.lists(st.floats() | st.integers(-10, 10), max_size=6) | st.lists(VALUE, max_size=6))
def test_vector_validation_equals_python(x):
    def run(f):
        try:
            out = f("candidates[0].embedding", x)
            return ("ok", out.typecode, repr(out.tolist()))
        except (InputError, InputTypeError) as exc:
            return (type(exc), str(exc))
    assert run(pool_module._vector) == run(python_vector)


def test_vector_validation_buffers():
    a = array.array("d", [1.0, 2.5])
    assert pool_module._vector("p", a) == python_vector("p", a) == a
    np = pytest.importorskip("numpy")
    for x in (np.arange(4.0), np.array([1.0, np.nan]), np.arange(4.0)[::2], np.arange(4)):
        try:
            want = ("ok", python_vector("p", x).tolist())
        except InputError as exc:
            want = ("err", str(exc))
        try:
            got = ("ok", pool_module._vector("p", x).tolist())
        except InputError as exc:
            got = ("err", str(exc))
        assert got == want
