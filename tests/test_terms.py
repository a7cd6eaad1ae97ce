"""ckn.terms.terms (spec §4): NFKC, invisible characters, casefold, \\w+, CJK bigrams."""

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


@given(st.text(max_size=100))
def test_terms_are_nonempty_and_spaceless(text):
    for term in terms(text):
        assert term
        assert not any(ch.isspace() for ch in term)
