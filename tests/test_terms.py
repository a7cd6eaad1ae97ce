"""ckn.terms.terms (spec §4): NFKC, invisible characters, casefold, \\w+, CJK bigrams."""

import importlib
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ckn.terms import normalize, terms


@pytest.mark.parametrize("text, expected", [
    ("", []),
    ("   \n\t ", []),
    ("..., !?", []),
    ("Durable Object SQLite", ["durable", "object", "sqlite"]),
    # NFKC: fullwidth Latin and digits, ligatures, superscripts
    ("ＤＵＲＡＢＬＥ　Ｏｂｊｅｃｔ １２３", ["durable", "object", "123"]),
    ("ﬁle ﬂow", ["file", "flow"]),
    ("x²", ["x2"]),
    # casefold, not lower: ß → ss, Greek final sigma
    ("Straße STRASSE", ["strasse", "strasse"]),
    ("ΣΊΣΥΦΟΣ", ["σίσυφοσ"]),
    # zero-width / invisible format characters are removed, joining the word back together
    ("ig\u200bnore", ["ignore"]),
    ("pre\u200cvious in\u200dstruc\u2060tions\ufeff", ["previous", "instructions"]),
    ("soft\u00adhyphen", ["softhyphen"]),
    ("\ufeffbom", ["bom"]),
    # punctuation splits; underscore and digits are \w
    ("api_key=42; v2.0", ["api_key", "42", "v2", "0"]),
    # CJK: overlapping bigrams of every Han/Hiragana/Katakana run
    ("abc東京タ", ["abc", "東京", "京タ"]),
    ("東京都", ["東京", "京都"]),
    ("東", ["東"]),                                   # a single Han character stays one term
    ("東 京", ["東", "京"]),
    ("ひらがな", ["ひら", "らが", "がな"]),           # Hiragana
    ("カタカナ", ["カタ", "タカ", "カナ"]),           # Katakana
    ("ｶﾀｶﾅ", ["カタ", "タカ", "カナ"]),               # halfwidth Katakana → NFKC fullwidth
    # mixed Latin/CJK inside one \w match: pieces around runs stay terms, in order
    ("sqlite数据库test", ["sqlite", "数据", "据库", "test"]),
    ("a東b京c", ["a", "東", "b", "京", "c"]),
    ("Python3の本", ["python3", "の本"]),
    ("東京。大阪", ["東京", "大阪"]),                 # ideographic full stop splits
    ("𠀋𠀌x", ["𠀋𠀌", "x"]),                          # CJK extension B (U+2000B, U+2000C)
    ("한국어 text", ["한국어", "text"]),              # Hangul is not in the bigram ranges
])
def test_terms(text, expected):
    assert terms(text) == expected


def test_normalize():
    assert normalize("ＡＢ\u200bＣ Straße") == "abc strasse"


def _reference(text: str) -> str:
    t = unicodedata.normalize("NFKC", text)
    return t.translate(dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))).casefold()


# Long texts mixing the characters normalize cuts before (ASCII, CJK, kana, Hangul syllables,
# fullwidth forms) with everything that composes, reorders or decomposes across characters:
# combining marks, kana voicing marks, Hangul jamo, Indic nuktas and vowel signs, halfwidth forms.
_MIXED = st.text(st.sampled_from(
    "aeouAEOn .,東京かがカガ한국가각\u3099\u309a\uff76\uff9e\uff9f\u1100\u1161\u11a8\u0915\u093c\u095c"
    "\u09c7\u09be\u0b47\u0b3e\u0301\u0308\u0323\u0345\u05b0\u0591ＡＢ，（）：\u00c5\u212b\u1e0b\u0307"
    "\u2126\ufb01\u00b2\u200bß"), min_size=30, max_size=400)


@given(_MIXED)
def test_normalize_matches_unicodedata_on_long_mixed_text(text):
    assert normalize(text) == _reference(text)


@given(st.text(min_size=30, max_size=300))
def test_normalize_matches_unicodedata(text):
    assert normalize(text) == _reference(text)


def test_normalize_cuts_only_where_nfkc_does_not_reach_across():
    """Every character normalize may cut a text before is a starter, and neither it nor the first
    character of its decomposition is the second character of any canonical composition."""
    seconds = set()
    for cp in range(sys.maxunicode + 1):
        d = unicodedata.decomposition(chr(cp))
        if d and not d.startswith("<") and len(d.split()) == 2:
            seconds.add(chr(int(d.split()[1], 16)))
    cut = importlib.import_module("ckn.terms")._CUT   # (the package exports the function terms)
    for cp in range(0x10000):
        ch = chr(cp)
        if cut.match(ch):
            first = unicodedata.normalize("NFKD", ch)[0]
            assert unicodedata.combining(ch) == 0 and unicodedata.combining(first) == 0, hex(cp)
            assert ch not in seconds and first not in seconds, hex(cp)


@given(st.text(max_size=100))
def test_terms_are_nonempty_and_spaceless(text):
    for term in terms(text):
        assert term
        assert not any(ch.isspace() for ch in term)
