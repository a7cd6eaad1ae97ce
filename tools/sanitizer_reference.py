"""Pure-Python reference of the sanitizer's line scorer (the compiled ``ckn._sanitize`` must agree).

A line is scored in four steps, each O(line length):

1. fold — per code point: Tag characters decode to the lower-case ASCII they shadow, invisible
   characters are dropped, compatibility forms (fullwidth, mathematical and circled letters,
   ligatures, odd spaces) and case fold by the tables of :func:`lower1` (the NFKC and casefold
   mappings that matter for Latin, Greek, Cyrillic and Vietnamese text), a few look-alikes map to
   Latin, and leet digits/symbols next to a Latin letter map to letters;
2. stream — word characters (letters, digits, marks) are concatenated without separators, with
   flags: word start/end, sentence start, quoted, line-initial. CJK, kana, Hangul, Thai and
   similar scripts count every character as its own word;
3. concepts — a trie of the lexicon stems walks the stream from every word start and from every
   position up to three characters after an earlier match ended (so ``ignoreallpreviousinstructions``
   still splits; a chained match is at least three characters long and needs no word end after it);
4. features (only for a line with at least MIN_HITS concept hits; others are never flagged by
   the scorer) — concept present, concept at line start, at a sentence start; a concept inside
   double quotes counts only as quoted (a mention, not a use); unordered pairs of the unquoted
   concepts within a window (word order differs across languages), a few shape buckets, and hashed
   words and word pairs; the score is the sum of int32 weights of the
   distinct active features (integer arithmetic, so compiled and reference agree exactly).
"""
from __future__ import annotations

import struct

MIN_HITS = 2
MAX_HITS = 64
PAIR_WINDOW = 6
MAGIC = b"CKNSANW1"

_LEET = {ord("0"): "o", ord("1"): "i", ord("3"): "e", ord("4"): "a", ord("5"): "s", ord("7"): "t",
         ord("@"): "a", ord("$"): "s"}
_CONFUSABLE = {0x0430: "a", 0x0435: "e", 0x043E: "o", 0x0440: "p", 0x0441: "c", 0x0443: "y", 0x0445: "x",
               0x0456: "i", 0x0458: "j", 0x0455: "s", 0x0501: "d", 0x04BB: "h", 0x04CF: "l", 0x03B1: "a",
               0x03BF: "o", 0x03C1: "p", 0x03B9: "i", 0x03BA: "k", 0x03BD: "v", 0x03C5: "u", 0x03C7: "x",
               0x0131: "i", 0x0251: "a", 0x0261: "g", 0x0578: "n", 0x057D: "u"}
_SENT = frozenset(map(ord, ".!?;:\u3002\u0964\u0965\u061f\u06d4"))
_QUOTE = frozenset(map(ord, "\"'`\u201c\u201d\u201e\u2018\u2019\u00ab\u00bb\u300c\u300d\u300e\u300f"))
_CODE = frozenset(map(ord, "=(){}[];<>_|\\/#"))

# Shape features (offsets after the concept blocks), then hashed words.
N_SHAPE = 18
WORD_BITS = 15


def invisible(c: int) -> bool:
    """Format/invisible code points dropped before matching (Tag characters are decoded instead)."""
    return (c == 0xAD or c == 0x34F or c == 0x61C or c == 0x115F or c == 0x1160 or c == 0x17B4
            or c == 0x17B5 or 0x180B <= c <= 0x180F or 0x200B <= c <= 0x200F or 0x202A <= c <= 0x202E
            or 0x2060 <= c <= 0x206F or c == 0x3164 or 0xFE00 <= c <= 0xFE0F or c == 0xFEFF
            or c == 0xFFA0 or 0x1BCA0 <= c <= 0x1BCA3 or 0x1D173 <= c <= 0x1D17A
            or 0xE0000 <= c <= 0xE001F or c == 0xE007F or 0xE0100 <= c <= 0xE01EF)


def wide(c: int) -> bool:
    """Scripts written without spaces between words: every character is its own word."""
    return (0x0E00 <= c <= 0x0EFF or 0x1000 <= c <= 0x109F or 0x1100 <= c <= 0x11FF
            or 0x1780 <= c <= 0x17FF or 0x2E80 <= c <= 0x2FDF or 0x3040 <= c <= 0x31FF
            or 0x3400 <= c <= 0x4DBF or 0x4E00 <= c <= 0x9FFF or 0xAC00 <= c <= 0xD7AF
            or 0xF900 <= c <= 0xFAFF or 0x20000 <= c <= 0x3FFFF)


def word_char(c: int) -> bool:
    """Letters, digits and marks (by code-point ranges; no Unicode database)."""
    if c < 0x80:
        return 0x30 <= c <= 0x39 or 0x61 <= c <= 0x7A or 0x41 <= c <= 0x5A
    return not (c <= 0xBF or c == 0xD7 or c == 0xF7 or c == 0x37E or c == 0x387 or 0x55A <= c <= 0x55F
                or c == 0x589 or c == 0x60C or c == 0x61B or c == 0x61F or c == 0x6D4 or c == 0x964
                or c == 0x965 or c == 0xE5A or c == 0xE5B or c == 0x1680 or 0x2000 <= c <= 0x2BFF
                or 0x2E00 <= c <= 0x2E7F or 0x3000 <= c <= 0x303F or 0xD800 <= c <= 0xF8FF
                or 0xFE10 <= c <= 0xFE6F or 0xFF00 <= c <= 0xFF0F or 0xFFF0 <= c <= 0xFFFF
                or 0x1F000 <= c <= 0x1FAFF)


def _latin(c: int) -> bool:
    return 0x61 <= c <= 0x7A


def lower1(c: int) -> int:
    """Compatibility form and case of one code point (a ligature: its first letter)."""
    if c < 0x80:
        return c + 32 if 0x41 <= c <= 0x5A else c
    if 0xFF01 <= c <= 0xFF5E:
        c -= 0xFEE0
        return c + 32 if 0x41 <= c <= 0x5A else c
    if c == 0xA0 or c == 0x3000 or 0x2000 <= c <= 0x200A:
        return 0x20
    if c <= 0xDE:
        return c + 32 if (c >= 0xC0 and c != 0xD7) else c
    if c == 0xDF or c == 0x17F:
        return 0x73
    if c <= 0x17F:
        if c == 0x130:
            return 0x69
        if c == 0x178:
            return 0xFF
        if (0x100 <= c <= 0x12F or 0x132 <= c <= 0x137 or 0x14A <= c <= 0x177) and c % 2 == 0:
            return c + 1
        if (0x139 <= c <= 0x148 or 0x179 <= c <= 0x17E) and c % 2 == 1:
            return c + 1
        return c
    if 0x391 <= c <= 0x3A9 and c != 0x3A2:
        return c + 32
    if c == 0x3C2:
        return 0x3C3
    if 0x410 <= c <= 0x42F:
        return c + 32
    if 0x400 <= c <= 0x40F:
        return c + 80
    if (0x1E00 <= c <= 0x1E95 or 0x1EA0 <= c <= 0x1EFF) and c % 2 == 0:
        return c + 1
    if 0x1D400 <= c <= 0x1D6A3:
        return 0x61 + (c - 0x1D400) % 52 % 26
    if 0x1D7CE <= c <= 0x1D7FF:
        return 0x30 + (c - 0x1D7CE) % 10
    if 0x24B6 <= c <= 0x24CF:
        return 0x61 + c - 0x24B6
    if 0x24D0 <= c <= 0x24E9:
        return 0x61 + c - 0x24D0
    if 0xFB00 <= c <= 0xFB06:
        return 0x73 if c >= 0xFB05 else 0x66
    return c


_LIGATURES = {0xDF: "ss", 0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl",
              0xFB05: "st", 0xFB06: "st"}


def fold_cp(c: int) -> list[int]:
    """The folded code points of one code point (none for an invisible one)."""
    if 0xE0020 <= c <= 0xE007E:
        c -= 0xE0000
        return [c + 32 if 0x41 <= c <= 0x5A else c]
    if c >= 0xAD and invisible(c):
        return []
    lig = _LIGATURES.get(c)
    if lig:
        return [ord(x) for x in lig]
    c = lower1(c)
    m = _CONFUSABLE.get(c)
    return [ord(m) if m else c]


def fold_points(segment: str) -> list[int]:
    """Step 1 on one segment (original text): the code points the stream is built from."""
    raw = [c for ch in segment for c in fold_cp(ord(ch))]
    out = []
    n = len(raw)
    for i, c in enumerate(raw):
        m = _LEET.get(c)
        if m and ((i > 0 and _latin(raw[i - 1])) or (i + 1 < n and _latin(raw[i + 1]))):
            c = ord(m)
        out.append(c)
    return out


def stream(points: list[int]):
    """Step 2: (chars, flags, n_words, shape) where flags bit 1 word start, 2 word end, 4 sentence
    start, 8 inside double quotes (``"``, ``“”``, ``„``, ``«»``, ``「」``), 16 line-initial; shape = (colon_end, question, quote, code_chars, pipes)."""
    chars: list[int] = []
    flags: list[int] = []
    n_words = 0
    sep_sent = True            # the separator run before the next word holds sentence punctuation
    inq = False                # inside double quotes (a mention, not a use)
    initial_done = False
    prev_word = False
    prev_wide = False
    question = quote = code = pipes = 0
    last_nonspace = 0
    for c in points:
        if word_char(c):
            w = wide(c)
            if not prev_word or w or prev_wide:
                f = 1
                if sep_sent:
                    f |= 4
                if not initial_done and not (0x30 <= c <= 0x39):
                    f |= 16
                    initial_done = True
                if chars and (w or prev_wide):
                    flags[-1] |= 2
                n_words += 1
                sep_sent = False
            else:
                f = 0
            if inq:
                f |= 8
            chars.append(c)
            flags.append(f)
            prev_word, prev_wide = True, w
        else:
            if prev_word and chars:
                flags[-1] |= 2
            prev_word = prev_wide = False
            if c in _SENT:
                sep_sent = True
            if c in _QUOTE:
                quote = 1
            if c == 0x22 or c == 0x201C or c == 0x201D:
                inq = not inq
            elif c == 0x201E or c == 0xAB or c == 0x300C or c == 0x300E:
                inq = True
            elif c == 0xBB or c == 0x300D or c == 0x300F:
                inq = False
            if c == 0x3F:
                question = 1
            if c in _CODE:
                code += 1
            if c == 0x7C:
                pipes += 1
        if c != 0x20 and c != 0x09:
            last_nonspace = c
    if chars:
        flags[-1] |= 2
    return chars, flags, n_words, (int(last_nonspace == 0x3A), question, quote, code, pipes)


class Trie:
    """Lexicon stems as a dict trie: node -> {code point: child}; ends[node] = (concept, whole_word)."""

    def __init__(self, entries: list[tuple[list[int], int, int]]):
        self.next: list[dict[int, int]] = [{}]
        self.ends: dict[int, tuple[int, int]] = {}
        for points, concept, whole in entries:
            node = 0
            for c in points:
                child = self.next[node].get(c)
                if child is None:
                    child = len(self.next)
                    self.next.append({})
                    self.next[node][c] = child
                node = child
            self.ends.setdefault(node, (concept, whole))


def hits(chars, flags, trie: Trie) -> list[tuple[int, int]]:
    """Step 3: (concept, flags of its start, plus 32 for a chained start) for each stem match, left
    to right, at most MAX_HITS."""
    out = []
    n = len(chars)
    chain = bytearray(n + 3)
    for i in range(n):
        if not (flags[i] & 1 or chain[i]):
            continue
        node = 0
        j = i
        while j < n:
            node = trie.next[node].get(chars[j], -1)
            if node < 0:
                break
            end = trie.ends.get(node)
            if end is not None and ((not end[1] or flags[j] & 2) if flags[i] & 1 else j - i >= 2):
                out.append((end[0], flags[i] if flags[i] & 1 else 32 | (flags[i] & 8)))
                chain[j + 1] = chain[j + 2] = chain[j + 3] = 1
                if len(out) == MAX_HITS:
                    return out
            j += 1
    return out


def _bucket(x: int, edges: tuple[int, ...]) -> int:
    b = 0
    while b < len(edges) and x >= edges[b]:
        b += 1
    return b


def features(chars, flags, n_words, shape, trie: Trie, k: int) -> list[int]:
    """Step 4: the sorted distinct feature ids of one line (empty for a line without words)."""
    if n_words == 0:
        return []
    hs = hits(chars, flags, trie)
    if len(hs) < MIN_HITS:
        return []
    out = {0}
    for c, f in hs:
        if f & 8:                                   # inside quotes: only the quoted-concept feature
            out.add(1 + 3 * k + c)
            continue
        out.add(1 + c)
        if f & 16:
            out.add(1 + k + c)
        if f & 4:
            out.add(1 + 2 * k + c)
    used = [c for c, f in hs if not f & 8]
    for idx, c in enumerate(used):
        for c2 in used[idx + 1: idx + 1 + PAIR_WINDOW]:
            out.add(1 + 4 * k + min(c, c2) * k + max(c, c2))
    base = 1 + 4 * k + k * k
    colon_end, question, quote, code, pipes = shape
    out.add(base + _bucket(n_words, (3, 6, 11, 21, 41)))                 # 6 buckets: 0..5
    out.add(base + 6 + _bucket(len(hs), (1, 2, 3, 5, 9)))                # 6 buckets: 6..11
    if colon_end:
        out.add(base + 12)
    if question:
        out.add(base + 13)
    if quote:
        out.add(base + 14)
    if code >= 4:
        out.add(base + 15)
    if pipes >= 2:
        out.add(base + 16)
    if sum(1 for _c, f in hs if f & 32) >= 2:        # glued words: two matches inside one word
        out.add(base + 17)
    base += N_SHAPE
    h = 2166136261
    prev = 0
    for c, f in zip(chars, flags):
        if f & 1:
            h = 2166136261
        h = ((h ^ c) * 16777619) & 0xFFFFFFFF
        if f & 2:
            out.add(base + (h >> (32 - WORD_BITS)))
            out.add(base + ((((prev * 31) ^ h) * 16777619) & 0xFFFFFFFF) % (1 << WORD_BITS))
            prev = h
    return sorted(out)


def n_features(k: int) -> int:
    return 1 + 4 * k + k * k + N_SHAPE + (1 << WORD_BITS)


def line_features(line: str, trie: Trie, k: int) -> list[int]:
    """Sorted distinct feature ids of one line (no boundary inside); empty: the line is not scored."""
    chars, flags, n_words, shape = stream(fold_points(line))
    return features(chars, flags, n_words, shape, trie, k)


# ---- weights file -------------------------------------------------------------------------------
# little-endian: MAGIC, u32 version, u32 k, i32 threshold, u32 n_entries, then per entry
# (u8 concept, u8 whole_word, u16 length, length × u32 code points), u32 n_weights, n_weights × i32.

def write_weights(path, version: int, k: int, threshold: int, entries, weights) -> None:
    parts = [MAGIC, struct.pack("<IIiI", version, k, threshold, len(entries))]
    for points, concept, whole in entries:
        parts.append(struct.pack("<BBH", concept, whole, len(points)))
        parts.append(struct.pack(f"<{len(points)}I", *points))
    parts.append(struct.pack("<I", len(weights)))
    parts.append(struct.pack(f"<{len(weights)}i", *weights))
    with open(path, "wb") as fh:
        fh.write(b"".join(parts))


def read_weights(path):
    """(version, k, threshold, entries, weights) from a weights file."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not a ckn sanitizer weights file")
    version, k, threshold, n = struct.unpack_from("<IIiI", data, 8)
    pos = 24
    entries = []
    for _ in range(n):
        concept, whole, length = struct.unpack_from("<BBH", data, pos)
        pos += 4
        entries.append((list(struct.unpack_from(f"<{length}I", data, pos)), concept, whole))
        pos += 4 * length
    (nw,) = struct.unpack_from("<I", data, pos)
    weights = list(struct.unpack_from(f"<{nw}i", data, pos + 4))
    return version, k, threshold, entries, weights


def score(feats: list[int], weights: list[int]) -> int:
    return sum(weights[f] for f in feats)
