"""MinHasher bulk signatures with ``threads`` > 1: the same matrices as one thread, threads
started only when asked and when the work is big enough, a failed thread start handled, and
the argument checks."""

import array
import random
import subprocess
import sys
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ckn.minhash
from ckn.errors import CknTypeError, CknValueError
from ckn.minhash import PRIME, MinHasher, shingle_hashes, text_shingles
from ckn.scanner import scan

# 200,000 shingle hashes (extremes of the field included): with >= 32 permutations that is
# > 6.4M shingle x permutation evaluations, enough for 3 threads (one per 2**21).
TOTAL = 200_000
_rnd = random.Random(20261130)
POOL = array.array("I", [0, 1, PRIME - 2, PRIME - 1]
                   + [_rnd.randrange(PRIME) for _ in range(TOTAL - 4)])
MH64 = MinHasher(64)


class _Counting:
    """Stands in for the threading module inside ckn.minhash: counts started threads, and
    optionally makes every start fail as when the system has no thread left."""

    def __init__(self, fail=False):
        self.started = 0
        counter = self

        class Thread(threading.Thread):
            def start(self):
                if fail:
                    raise RuntimeError("can't start new thread")
                counter.started += 1
                super().start()

        self.Thread = Thread


@pytest.fixture
def counting(monkeypatch):
    fake = _Counting()
    monkeypatch.setattr(ckn.minhash, "_threading", fake)
    return fake


@given(st.lists(st.integers(0, TOTAL), max_size=40), st.integers(32, 96))
def test_threads_give_identical_matrices(cuts, perms):
    offsets = [0] + sorted(cuts) + [TOTAL]
    mh = MinHasher(perms)
    one = mh.signatures_flat(POOL, offsets)
    assert mh.signatures_flat(POOL, offsets, threads=2) == one
    assert mh.signatures_flat(POOL, offsets, threads=3) == one
    for k in {0, len(offsets) // 2 - 1, len(offsets) - 2}:
        assert list(one[k]) == list(mh.signature(POOL[offsets[k]:offsets[k + 1]]))


def test_every_bulk_method_takes_threads():
    words = ["w%d" % _rnd.randrange(5000) for _ in range(120_000)]
    texts = [" ".join(words[k:k + 400]) for k in range(0, len(words), 400)]
    sets = [text_shingles(t) for t in texts]
    th = scan(texts)
    for threads in (2, 3):
        assert MH64.text_signatures(texts, threads=threads) == MH64.text_signatures(texts)
        assert MH64.signatures(sets, threads=threads) == MH64.signatures(sets)
        assert (MH64.term_hash_signatures(th.values, th.offsets, 2, threads=threads)
                == MH64.term_hash_signatures(th.values, th.offsets, 2))
    assert MH64.signatures(sets, threads=2)[7].tolist() == list(MH64.signature(sets[7]))
    assert list(shingle_hashes(th.values[th.offsets[0]:th.offsets[1]])) == list(sets[0])


def test_threads_started_only_when_asked_and_worth_it(counting):
    offsets = list(range(0, TOTAL + 1, 1000))
    MH64.signatures_flat(POOL, offsets)
    assert counting.started == 0                 # the default: no thread
    MH64.signatures_flat(POOL, offsets, threads=3)
    assert counting.started == 2                 # the calling thread does one range
    MH64.signatures_flat(POOL[:1000], [0, 500, 1000], threads=3)
    assert counting.started == 2                 # 64,000 evaluations: not worth a thread
    MH64.signatures_flat(POOL, [0, TOTAL // 2, TOTAL], threads=3)
    assert counting.started == 3                 # one range per row at most
    MH64.signatures_flat(POOL, [0, 10, TOTAL], threads=2)
    assert counting.started == 3                 # ranges by shingle count: both rows here
    MH64.signatures_flat(POOL, [0, TOTAL], threads=8)
    assert counting.started == 3                 # a single row stays on this thread


def test_failed_thread_start_runs_the_range_on_the_calling_thread(monkeypatch):
    monkeypatch.setattr(ckn.minhash, "_threading", _Counting(fail=True))
    offsets = list(range(0, TOTAL + 1, 777)) + [TOTAL]
    assert MH64.signatures_flat(POOL, offsets, threads=3) == MH64.signatures_flat(POOL, offsets)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("places", [[0], [TOTAL - 1], [150_000, 20_000],
                                    [199_000, 120_000, 99_999]])
def test_a_value_at_least_p_is_reported_at_its_first_place(places, threads):
    # Each worker searches its own rows (each thread's range holds one of the later places);
    # the error names the first place in `values`, whichever thread found it.
    values = array.array("I", POOL)
    for k, place in enumerate(places):
        values[place] = [PRIME, 2**32 - 1, PRIME + 1][k % 3]
    offsets = list(range(0, TOTAL + 1, 1000))
    first = min(places)
    with pytest.raises(CknValueError, match=rf"values\[{first}\]: .* got {values[first]}$"):
        MH64.signatures_flat(values, offsets, threads=threads)


def test_importing_ckn_starts_no_thread():
    code = "import threading, ckn, ckn.minhash; print(threading.active_count())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"


@pytest.mark.parametrize("call", [
    lambda t: MH64.signatures_flat([1, 2], [0, 2], threads=t),
    lambda t: MH64.signatures([[1, 2]], threads=t),
    lambda t: MH64.text_signatures(["a b c"], threads=t),
    lambda t: MH64.term_hash_signatures([1, 2, 3], [0, 3], threads=t),
])
@pytest.mark.parametrize("threads, exc, match", [
    (0, CknValueError, "threads: must be >= 1, got 0"),
    (-2, CknValueError, "threads: must be >= 1"),
    (1.5, CknTypeError, "threads: expected an integer, got float"),
    (True, CknTypeError, "threads: expected an integer, got bool"),
    (None, CknTypeError, "threads: expected an integer"),
    ("2", CknTypeError, "threads: expected an integer"),
])
def test_threads_argument_errors(call, threads, exc, match):
    with pytest.raises(exc, match=match):
        call(threads)


def test_threads_is_keyword_only():
    with pytest.raises(TypeError):
        MH64.signatures_flat([1, 2], [0, 2], 2)
    with pytest.raises(TypeError):
        MH64.signatures([[1, 2]], 2)
