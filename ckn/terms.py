"""Text normalisation and term extraction (spec §4), shared by BM25 and MinHash shingles.

``terms(text)``: Unicode NFKC, drop zero-width/invisible format characters (U+200B–U+200D,
U+2060, U+FEFF, U+00AD), casefold, then Python's Unicode ``\\w+``. Inside each match every run of
Han/Hiragana/Katakana characters becomes its overlapping character bigrams (a run of one
character stays one term); the pieces of the match around such runs stay terms of their own,
in order. No stemming, no stop words. Cost: O(len(text)).
"""

import re
import unicodedata
from functools import lru_cache

__all__ = ["normalize", "terms"]

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_WORD = re.compile(r"\w+")


_INVISIBLE_CHARS = tuple(map(chr, _INVISIBLE))


@lru_cache(maxsize=1)
def _cjk_run() -> re.Pattern:
    """Runs of Han, Hiragana and Katakana, compiled on first use: ``re`` expands the ranges code
    point by code point (~2 ms), and ASCII words never ask."""
    return re.compile(
        "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]+")


def normalize(text: str) -> str:
    """NFKC, invisible format characters removed, casefolded (spec §4)."""
    t = unicodedata.normalize("NFKC", text)
    # str.translate with a dict costs ~100 ns per non-ASCII character: run it only when needed.
    if any(ch in t for ch in _INVISIBLE_CHARS):
        t = t.translate(_INVISIBLE)
    return t.casefold()


def terms(text: str) -> list[str]:
    """The terms of ``text`` in order (spec §4); ``terms("abc東京タ") == ["abc", "東京", "京タ"]``."""
    out: list[str] = []
    for match in _WORD.finditer(normalize(text)):
        word = match.group()
        if word.isascii() or not _cjk_run().search(word):
            out.append(word)
            continue
        pos = 0
        for run in _cjk_run().finditer(word):
            start, end = run.span()
            if start > pos:
                out.append(word[pos:start])
            if end - start == 1:
                out.append(word[start])
            else:
                out.extend(word[i : i + 2] for i in range(start, end - 1))
            pos = end
        if pos < len(word):
            out.append(word[pos:])
    return out
