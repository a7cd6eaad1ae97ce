"""A learned second opinion for the line sanitizer: a linear score of a segment's words.

The rule table (``ckn.sanitizer.RULES``) catches the directive structures it was written for;
attacks phrased in ways no rule anticipated slip through (about a third of a probe set written
by someone who had not read the rules). This module scores a normalised view with a logistic
regression over its words and adjacent word pairs, trained offline on the project's labelled
corpora (``tools/train_directive_model.py``; the weights ship as ``directive_model.json``):

* features: ``w:<word>`` and ``p:<word> <next word>`` of the view's letter runs of two or more
  letters, after every URL, e-mail address and host name is replaced by the word ``url``; a
  run of CJK characters contributes its character bigrams as words;
* score = bias + sum of the weights of the distinct features of all the segment's normalised
  views (unknown features weigh 0); a segment is a directive when it exceeds ``threshold``;
* its family is the one whose one-vs-rest family model scores highest (ties: ``FAMILIES``
  order);
* ``anchors``: words of large positive weight; a plain-ASCII segment in which none occurs is
  not scored (the compiled pre-filter finds them, so ordinary text costs nothing extra).

Nothing is fetched or executed and no model is called: the weights are a table of about ten
thousand numbers, read once (``ckn.sanitizer`` loads them when it is imported). Cost: a few
microseconds per scored segment. The sanitizer only asks for a score when no rule matched
(docs/directive-model.md). ``Model.top_features`` shows why a line was flagged.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

try:
    from ._directive import AsciiScorer  # compiled weight sums for plain-ASCII views
except ImportError:  # pragma: no cover - source tree without the compiled extension
    AsciiScorer = None

__all__ = ["MODEL_PATH", "Model", "features", "load_model"]

MODEL_PATH = Path(__file__).with_name("directive_model.json")

_LETTERS = re.compile(r"[^\W\d_]+")
_ASCII_LETTERS = re.compile(r"[A-Za-z]+")
# URLs, e-mail addresses and host names become the word "url": the training corpora use
# reserved example domains (example.invalid for attacks, example.com in documentation), and a
# model must not learn which domain names a corpus writer preferred. (ckn._directive holds the
# same domain endings for its C hint; a test holds the two to each other.)
_DOMAIN_ENDINGS = ("invalid|example|test|localhost|com|org|net|io|dev|ai|app|co|ru|de|fr|es|cn|jp"
                   "|uk|eu|info|biz")
_ADDRESS = re.compile(
    r"(?:https?:/?/?|www\.)\S*|\S+@\S+\.\S+"
    rf"|\b[\w-]+(?:\.[\w-]+)*\.(?:{_DOMAIN_ENDINGS})\b\S*"
    # a reserved example domain whose dots the de-obfuscated view dropped ("exampleinvalid")
    r"|\S*example(?:invalid|com|org|net|test)\S*"
)


@lru_cache(maxsize=1)
def _cjk() -> re.Pattern:
    """Kana, CJK ideographs (and extension A), Hangul syllables; compiled on first use (``re``
    expands the ranges code point by code point, ~4 ms, and only non-ASCII runs ask)."""
    return re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


# Something every match of _ADDRESS contains (a scheme, "www.", "@", "example", or a dot before
# one of its domain endings and a word boundary): the costly substitution is skipped on views
# without one (documentation's "os.path" and "e.g." have none).
_ADDRESS_HINT = re.compile(rf"http|www\.|@|example|\.(?:{_DOMAIN_ENDINGS})\b")


_RUN_END = re.compile(r"\S*")


def _without_addresses(view: str) -> str:
    """``_ADDRESS.sub(" url ", view)``, run only on the runs of non-space characters that hold
    an address hint (``_ADDRESS_HINT``): a match takes no space and ends where its run ends
    (every alternative ends on a greedy ``\\S``), so it lies in one run, whose hint it holds
    (``\\s`` is ``str.isspace``, and the run's ends read as the string's). The substitution
    scans far fewer positions on a long line. O(len(view))."""
    pieces: list[str] = []
    done = 0
    for hint in _ADDRESS_HINT.finditer(view):
        start = hint.start()
        if start < done:  # in the run just substituted
            continue
        while start > done and not view[start - 1].isspace():
            start -= 1
        end = _RUN_END.match(view, hint.end()).end()
        pieces.append(view[done:start])
        pieces.append(_ADDRESS.sub(" url ", view[start:end]))
        done = end
    if not pieces:
        return view
    pieces.append(view[done:])
    return "".join(pieces)


def _addresses_read(view: str) -> str:
    """The text ``_tokens`` reads: ``view`` with its addresses as the word "url"
    (``_without_addresses``). (Views with neither ".", "@" nor "example" keep even a bare
    "http://host": the model was trained that way.)"""
    if "." in view or "@" in view or "example" in view:
        return _without_addresses(view)
    return view


def _tokens(view: str) -> list[str]:
    view = _addresses_read(view)
    if view.isascii():  # the same runs, found faster
        return [run for run in _ASCII_LETTERS.findall(view) if len(run) > 1]
    tokens: list[str] = []
    for run in _LETTERS.findall(view):
        if run.isascii() or not _cjk().search(run):
            if len(run) > 1:  # single Latin/Cyrillic letters are noise (variables, initials)
                tokens.append(run)
        elif len(run) > 1:
            tokens.extend([run[i:i + 2] for i in range(len(run) - 1)])
        else:
            tokens.append(run)
    return tokens


def _weight_sum(weights: dict[str, float], feats) -> float:
    """The weights of ``feats`` (sorted, distinct) added left to right from 0.0; unknown features
    weigh 0.0. An explicit loop, not ``sum()``: a set's order follows Python's per-process
    string hashes, and since Python 3.12 ``sum()`` compensates rounding, so either would make a
    score's last bits, and so a verdict at the threshold, depend on the process or version."""
    get = weights.get
    total = 0.0
    for f in feats:
        total += get(f, 0.0)
    return total


def _feature_set(views) -> set[str]:
    found: set[str] = set()
    for view in views:
        tokens = _tokens(view)
        found.update(["w:" + t for t in tokens])
        found.update(["p:" + a + " " + b for a, b in zip(tokens, tokens[1:])])
    return found


def features(views) -> list[str]:
    """Sorted distinct features of a segment's normalised views (all views together: a
    disguise such as Tag smuggling or spaced letters shows its words in one view only).

    >>> features(["ignore the rules"])
    ['p:ignore the', 'p:the rules', 'w:ignore', 'w:rules', 'w:the']
    """
    return sorted(_feature_set(views))


class Model:
    """Weights of the directive model (see the module docstring); immutable after loading."""

    __slots__ = ("bias", "threshold", "weights", "families", "trained_on", "anchors", "_ascii")

    def __init__(self, data: dict):
        self.bias = float(data["bias"])
        self.threshold = float(data["threshold"])
        self.weights: dict[str, float] = data["weights"]
        self.families: dict[str, tuple[float, dict[str, float]]] = {
            name: (float(m["bias"]), m["weights"]) for name, m in data["families"].items()
        }
        self.trained_on: tuple[str, ...] = tuple(data["trained_on"])
        self.anchors: frozenset[str] = frozenset(data.get("anchors", ()))
        self._ascii = None  # the compiled scorer, built on first use (~20 ms): see _scorer

    def score(self, views) -> float:
        """bias + the weights of the features of ``views`` (a segment's normalised views),
        summed in sorted feature order (:func:`_weight_sum`). The compiled
        ``ckn._directive.AsciiScorer`` sums them (the same double) unless a view holds a lone
        surrogate or an address hint; then it is asked again with the views' addresses read as
        ``_tokens`` reads them (``_addresses_read``): if none of those holds a hint either, the
        two views give the same tokens."""
        scorer = self._scorer()
        if scorer is not None:
            total = scorer.weight_sum(views)
            if total is None and (type(views) is tuple or type(views) is list):
                total = scorer.weight_sum([_addresses_read(view) if type(view) is str else view
                                           for view in views])
            if total is not None:
                return self.bias + total
        return self.bias + _weight_sum(self.weights, sorted(_feature_set(views)))

    def _scorer(self):
        """The compiled ``AsciiScorer`` of the weights (None without the extension), built on
        first use so that importing ``ckn`` does not pay for it. Two threads may both build
        one; either is the same table."""
        if self._ascii is None and AsciiScorer is not None:
            self._ascii = AsciiScorer(self.weights, self.bias, self.threshold)
        return self._ascii

    def family(self, views) -> str:
        """The family whose one-vs-rest model scores ``views`` highest (first in table order on
        ties); sums in sorted feature order, as :meth:`score`."""
        feats = sorted(_feature_set(views))
        best, best_score = "", float("-inf")
        for name, (bias, weights) in self.families.items():
            s = bias + _weight_sum(weights, feats)
            if s > best_score:
                best, best_score = name, s
        return best

    def top_features(self, views, k: int = 5) -> list[tuple[str, float]]:
        """The ``k`` features of ``views`` with the largest positive weights (for audits)."""
        weighted = [(f, self.weights[f]) for f in features(views) if self.weights.get(f, 0.0) > 0]
        return sorted(weighted, key=lambda fw: (-fw[1], fw[0]))[:k]


@lru_cache(maxsize=1)
def load_model() -> Model:
    """The shipped model, read on first use (as bytes: text mode's newline translation of its
    1 MB cost more than the decoding)."""
    return Model(json.loads(MODEL_PATH.read_bytes().decode("utf-8")))
