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


# NFKC maps each fullwidth ASCII form U+FF01..U+FF5E to the ASCII character 0xFEE0 below it.
_FULLWIDTH = re.compile("[\uff01-\uff5e]")
# Characters NFKC can cut a text before: each is a starter (combining class 0) and is no second
# character of any composition, nor does it decompose to one, so no composition, reordering or
# decomposition reaches across it (tests/test_terms.py checks this against unicodedata).
_CUT = re.compile("[\x00-\x7f\u3000-\u3029\u3041-\u3096\u30a1-\u30fa\u3400-\u4dbf"
                  "\u4e00-\u9fff\uac00-\ud7a3\uff01-\uff5e]")
_PIECE = 32                      # characters per piece, at least


def _fullwidth_ascii(match: re.Match) -> str:
    return chr(ord(match.group()) - 0xFEE0)


def _nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, in O(len(text)): CPython's composition step is
    superlinear on long texts and slow on high code points, so fullwidth ASCII forms (CJK
    punctuation) are mapped first, and what is still not NFKC is normalised in pieces of at
    least _PIECE characters cut before a :data:`_CUT` character."""
    if unicodedata.is_normalized("NFKC", text):
        return text
    text = _FULLWIDTH.sub(_fullwidth_ascii, text)
    if unicodedata.is_normalized("NFKC", text):
        return text
    parts = []
    start, n = 0, len(text)
    while True:
        cut = _CUT.search(text, start + _PIECE) if start + _PIECE < n else None
        if cut is None:
            parts.append(unicodedata.normalize("NFKC", text[start:]))
            return "".join(parts)
        parts.append(unicodedata.normalize("NFKC", text[start : cut.start()]))
        start = cut.start()


def normalize(text: str) -> str:
    """NFKC, invisible format characters removed, casefolded (spec §4)."""
    t = text if text.isascii() else _nfkc(text)
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
