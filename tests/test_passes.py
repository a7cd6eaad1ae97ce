"""GIL-free passes (ckn/_passes.pxd): the pack flow's text work, prepared by each module and run
in one stretch by ``ckn._pipeline.run_passes``, gives exactly what each function gives alone."""

import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ckn import _pipeline
from ckn._bm25 import Bm25Pass
from ckn.minhash import MinHasher, SignaturePass, term_hashes
from ckn.sanitizer import candidates_pass, sanitize_text, sanitized_by_pass
from ckn.scanner import ScanPass, scan, text_hashes
from ckn.terms import terms
from reference import bm25_reference, minhash_signature_reference, shingle_hash_set_reference

MH = MinHasher(16)

_WORDS = st.sampled_from(["a", "b", "alarm", "retry", "Ignore", "previous", "instructions", "東京",
                          "é", "key", ".", "!", " ", "  ", "\n", "\r\n", "1gn0re", "system:"])
TEXTS = st.lists(st.lists(_WORDS, max_size=30).map(" ".join), max_size=6)


def _passes(texts, query, k1=1.2, b=0.75, size=3):
    scan_pass = ScanPass(texts, "texts")
    distinct = array.array("Q", dict.fromkeys(text_hashes(query)))
    bm25 = Bm25Pass(scan_pass.values, scan_pass.offsets, len(texts), distinct, k1, b)
    lines = candidates_pass(texts)
    signatures = SignaturePass(MH, scan_pass.values, scan_pass.offsets, size)
    return scan_pass, bm25, lines, signatures


@settings(max_examples=150)
@given(TEXTS, st.lists(_WORDS, max_size=4).map(" ".join), st.sampled_from([0, 1 << 30]),
       st.integers(1, 4))
def test_passes_in_one_stretch_equal_each_function(texts, query, work, size):
    # work 0: run with the GIL held; 2**30: the same passes with it released
    scan_pass, bm25, lines, signatures = _passes(texts, query, size=size)
    _pipeline.run_passes((scan_pass, bm25, lines, signatures), work)
    docs = [terms(t) for t in texts]
    assert bm25.finish() == bm25_reference(docs, terms(query), k1=1.2, b=0.75)
    assert signatures.finish().tolist() == [
        minhash_signature_reference(shingle_hash_set_reference(list(term_hashes(d)), size), 16)
        for d in docs]
    alone = [sanitize_text(t) for t in texts]
    assert sanitized_by_pass(texts, lines) == {
        i: out for i, out in enumerate(alone) if out.redactions or out.text != texts[i]}
    values, offsets = scan_pass.finish()
    assert [list(values[offsets[k]:offsets[k + 1]]) for k in range(len(texts))] == [
        list(term_hashes(d)) for d in docs]
    assert len(values) == offsets[len(texts)]  # trimmed to what was written


def test_a_pass_gives_nothing_before_it_has_run():
    for p in _passes(["some text"], "text"):
        with pytest.raises(RuntimeError, match="has not run"):
            p.finish()


def test_the_scan_keeps_its_room_while_a_later_pass_reads_it():
    # Trimming the scan's arrays would move them under a pass that still holds them.
    scan_pass, bm25, lines, signatures = _passes(["alarm retry budget", "x"], "retry")
    _pipeline.run_passes((scan_pass, bm25, lines, signatures), 0)
    with pytest.raises(BufferError):
        scan_pass.finish()
    bm25.finish()
    signatures.finish()
    assert list(scan_pass.finish().offsets) == [0, 3, 4]


def test_a_scan_that_outgrows_its_room_stops_and_grows_once_let_go():
    # Room for a term per 4 code points: one-letter words outgrow it. The scan stops at the
    # first text whose terms do not fit, the passes after it do not run; it grows only once
    # no pass holds its arrays, then finishes the rest.
    texts = ["alarm retry budget " * 10, "a " * 3000 + "a", "東" * 2000, "é b " * 500]
    scan_pass, bm25, lines, signatures = _passes(texts, "a")
    _pipeline.run_passes((scan_pass, bm25, lines, signatures), 1 << 30)
    assert not scan_pass.complete
    with pytest.raises(RuntimeError, match="has not run"):
        bm25.finish()
    with pytest.raises(BufferError):
        scan_pass.run()
    del bm25, lines, signatures
    scan_pass.run()
    assert scan_pass.complete
    values, offsets = scan_pass.finish()
    assert [offsets[k + 1] - offsets[k] for k in range(4)] == [30, 3001, 1999, 1000]
    assert [list(values[offsets[k]:offsets[k + 1]]) for k in range(4)] == [
        list(term_hashes(terms(t))) for t in texts]


def test_a_text_whose_worst_case_outgrows_the_room_left_is_scanned_aside():
    # The first text's worst case (a term every other byte: 2,000) is more than the whole
    # room (1,131), its 400 terms are not: scanned aside and copied, the scan completes in one
    # run.
    texts = ["documentation words " * 200, "alpha beta gamma delta " * 20]
    scan_pass, bm25, lines, signatures = _passes(texts, "beta")
    _pipeline.run_passes((scan_pass, bm25, lines, signatures), 0)
    assert scan_pass.complete
    assert bm25.finish() == bm25_reference([terms(t) for t in texts], ["beta"], k1=1.2, b=0.75)


@given(st.lists(st.lists(st.integers(0, 2**31 - 2), max_size=5), min_size=1, max_size=6),
       st.data())
def test_signature_gather_picks_rows_and_replacements(sets, data):
    matrix = MH.signatures(sets)
    pick = data.draw(st.lists(st.integers(0, len(sets) - 1), max_size=8))
    replaced = {k: MH.signatures([data.draw(st.lists(st.integers(0, 2**31 - 2), max_size=4))])
                for k in range(len(pick)) if data.draw(st.booleans())}
    got = matrix._gather(pick, replaced)
    assert got.shape == (len(pick), 16)
    assert got.tolist() == [replaced[k].tolist()[0] if k in replaced else matrix.tolist()[r]
                            for k, r in enumerate(pick)]


def test_signature_gather_rejects_bad_rows():
    matrix = MH.signatures([[1, 2], [3]])
    with pytest.raises(IndexError, match="out of range"):
        matrix._gather([2], {})
    with pytest.raises(ValueError, match="another shape"):
        matrix._gather([0], {0: MinHasher(8).signatures([[1]])})


def test_a_signature_pass_hands_its_matrix_out_once():
    # finish() gives the pass's buffer to the matrix (the pack drops the pool's signatures as
    # soon as the survivors' are copied): a second finish() is an error, not a shared buffer.
    texts = ["alarm retry budget", "x"]
    scan_pass, bm25, lines, signatures = _passes(texts, "retry")
    _pipeline.run_passes((scan_pass, bm25, lines, signatures), 0)
    first = signatures.finish()
    with pytest.raises(RuntimeError, match="handed out already"):
        signatures.finish()
    assert first == MH.term_hash_signatures(*scan(texts), 3)


_DENSE = st.lists(st.sampled_from(["a", "b", "é", "東京", "ab", "alpha", " ", "  ", ".", "\n"]),
                  max_size=400).map("".join)


@settings(max_examples=150)
@given(st.lists(_DENSE, min_size=1, max_size=8), st.sampled_from([0, 1 << 30]))
def test_a_scan_whatever_its_room_gives_each_texts_hashes(texts, work):
    # Texts dense and sparse in terms, in any order: a text is scanned in place, aside, or the
    # scan stops for room; run again after the later passes let go, it gives every hash.
    scan_pass, bm25, lines, signatures = _passes(texts, "a b")
    _pipeline.run_passes((scan_pass, bm25, lines, signatures), work)
    del bm25, lines, signatures  # (they hold its arrays)
    if not scan_pass.complete:
        scan_pass.run()
    values, offsets = scan_pass.finish()
    assert [list(values[offsets[k]:offsets[k + 1]]) for k in range(len(texts))] == [
        list(term_hashes(terms(t))) for t in texts]
