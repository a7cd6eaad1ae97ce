"""Pure-Python reference of the sanitizer's line scorer (the compiled ``ckn._sanitize`` must agree).

A line is judged in five steps, each O(line length), and so is each text encoded in it
(:func:`payloads`); the line's score is the highest of these, and it is a known attack when one
of them is:

1. fold — per code point, through the weights file's fold table (``fold_table`` in
   ``tools/train_sanitizer.py``: NFKC, casefold, Latin/Greek/Cyrillic combining accents removed,
   invisible characters dropped, Tag characters decoded to the ASCII they shadow, look-alikes
   mapped to Latin); then in every run of leet digits/symbols and Latin letters that holds a
   letter (``h4z``, ``c450``, ``51573m4``) the leet characters map to letters;
2. stream — word characters (letters, digits, marks) are concatenated without separators, with
   flags: word start/end, sentence start, quoted, line-initial. CJK, kana, Hangul, Thai and
   similar scripts count every character as its own word;
3. concepts — a trie of the lexicon stems walks the stream from every word start and from every
   position up to three characters after an earlier match ended (so ``ignoreallpreviousinstructions``
   still splits; a chained match is at least three characters long and needs no word end after it);
4. features (only for a line with at least MIN_HITS concept hits; others are never flagged by
   the scorer) — concept present, concept at line start, at a sentence start; a concept inside
   double quotes counts only as quoted (a mention, not a use); unordered pairs of the unquoted
   concepts within a window (word order differs across languages), ordered neighbouring concepts
   with their word distance (0, 1-2, 3+: "your response", "ignore ... instructions"), a few shape
   buckets, and hashed
   words and word pairs; the score is the sum of int16 weights of the
   distinct active features (integer arithmetic, so compiled and reference agree exactly);
5. memory (every segment with words) — the segment is a known attack when more than half of its
   :func:`memory_keys` (whole short lines, runs of three or more words of longer ones) are in the
   weights file's memory: the keys of the training attack lines that no training benign line has.
"""
from __future__ import annotations

import base64
import struct
from typing import NamedTuple

MIN_HITS = 2
MAX_HITS = 64
PAIR_WINDOW = 6
N_GAPS = 3                 # word distance of consecutive concepts: same word, 1-2 words, 3 or more
MAGIC = b"CKNSANW1"
VERSION = 6
MAX_FOLD = 31                      # longest run of code points one code point folds to
MIN_BASE64 = 16                    # base64 characters in a run that is decoded
MIN_OCTETS = 4                     # groups of eight binary digits in a run that is decoded
_BASE64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

_LEET = {ord("0"): "o", ord("1"): "i", ord("3"): "e", ord("4"): "a", ord("5"): "s", ord("7"): "t",
         ord("@"): "a", ord("$"): "s"}
_SENT = frozenset(map(ord, ".!?;:}>\u3002\u0964\u0965\u061f\u06d4"))   # (after markup: a new sentence)
_QUOTE = frozenset(map(ord, "\"'`\u201c\u201d\u201e\u2018\u2019\u00ab\u00bb\u300c\u300d\u300e\u300f"))
_CODE = frozenset(map(ord, "=(){}[];<>_|\\/#"))

# Shape features (offsets after the concept blocks), then hashed words.
N_SHAPE = 18
WORD_BITS = 18
MEMORY_SPAN = 7                    # a segment of fewer words is one key in the memory of attacks
SHINGLE = 3                        # a key of a longer segment: at least SHINGLE words
KEY_CHARS = 12                     # ... and KEY_CHARS characters


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


def _text(data: bytes) -> str | None:
    """``data`` as text: strict UTF-8, no control character but tab, LF and CR (these and U+2028,
    U+2029 read as spaces), at least one ASCII letter; else None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if any(ord(ch) < 0x20 and ch not in "\t\n\r" or 0x7F <= ord(ch) <= 0x9F for ch in text):
        return None
    if not any("a" <= ch <= "z" or "A" <= ch <= "Z" for ch in text):
        return None
    return text.translate({9: 32, 10: 32, 13: 32, 0x2028: 32, 0x2029: 32})


def _octet_at(segment: str, i: int) -> bool:
    """Eight binary digits at ``i`` with no ASCII letter or digit beside them."""
    return (len(segment) - i >= 8 and all(ch in "01" for ch in segment[i:i + 8])
            and not (i > 0 and _alnum(segment[i - 1])) and not (i + 8 < len(segment) and _alnum(segment[i + 8])))


def _alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def payloads(segment: str) -> list[str]:
    """Text encoded in one segment as written (before folding), each judged like a line of its
    own: every maximal run of at least MIN_BASE64 base64 characters (``A-Za-z0-9+/``; a last
    character that cannot end a group is left out), then every run of at least MIN_OCTETS groups of
    eight binary digits, each group alone (no ASCII letter or digit beside it) and one space
    apart; those that decode to text (:func:`_text`)."""
    out = []
    n, i = len(segment), 0
    while i < n:
        j = i
        while j < n and segment[j] in _BASE64:
            j += 1
        if j - i >= MIN_BASE64:
            run = segment[i:j - 1] if (j - i) % 4 == 1 else segment[i:j]
            text = _text(base64.b64decode(run + "=" * (-len(run) % 4)))
            if text is not None:
                out.append(text)
        i = j + 1
    i = 0
    while i < n:
        if not _octet_at(segment, i):
            i += 1
            continue
        starts = [i]
        while segment[starts[-1] + 8:starts[-1] + 9] == " " and _octet_at(segment, starts[-1] + 9):
            starts.append(starts[-1] + 9)
        if len(starts) >= MIN_OCTETS:
            text = _text(bytes(int(segment[a:a + 8], 2) for a in starts))
            if text is not None:
                out.append(text)
        i = starts[-1] + 8
    return out


def fold_points(segment: str, fold: dict[int, tuple[int, ...]]) -> list[int]:
    """Step 1 on one segment (original text): each code point through the fold table ``fold``
    (absent: unchanged), then the leet digits/symbols of every run of them and Latin letters that
    holds a letter map to letters."""
    out = [c for ch in segment for c in fold.get(ord(ch), (ord(ch),))]
    i, n = 0, len(out)
    while i < n:
        j = i
        while j < n and (out[j] in _LEET or _latin(out[j])):
            j += 1
        if any(_latin(c) for c in out[i:j]):
            out[i:j] = [ord(_LEET[c]) if c in _LEET else c for c in out[i:j]]
        i = max(j, i + 1)
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


def hits(chars, flags, trie: Trie) -> list[tuple[int, int, int]]:
    """Step 3: (concept, flags of its start, plus 32 for a chained start, index of the word it
    starts in) for each stem match, left to right, at most MAX_HITS."""
    out = []
    n = len(chars)
    chain = bytearray(n + 3)
    word = -1
    for i in range(n):
        if flags[i] & 1:
            word += 1
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
                out.append((end[0], flags[i] if flags[i] & 1 else 32 | (flags[i] & 8), word))
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
    for c, f, _w in hs:
        if f & 8:                                   # inside quotes: only the quoted-concept feature
            out.add(1 + 3 * k + c)
            continue
        out.add(1 + c)
        if f & 16:
            out.add(1 + k + c)
        if f & 4:
            out.add(1 + 2 * k + c)
    used = [(c, w) for c, f, w in hs if not f & 8]
    for idx, (c, _w) in enumerate(used):
        for c2, _w2 in used[idx + 1: idx + 1 + PAIR_WINDOW]:
            out.add(1 + 4 * k + min(c, c2) * k + max(c, c2))
    base = 1 + 4 * k + k * k
    for (c, w), (c2, w2) in zip(used, used[1:]):      # ordered neighbours and their word distance
        if c != c2:
            out.add(base + (c * k + c2) * N_GAPS + (w2 - w >= 1) + (w2 - w >= 3))
    base += N_GAPS * k * k
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
    if sum(1 for _c, f, _w in hs if f & 32) >= 2:        # glued words: two matches inside one word
        out.add(base + 17)
    base += N_SHAPE
    prev = 0
    for h, _n in words(chars, flags):
        out.add(base + (h >> (32 - WORD_BITS)))
        out.add(base + ((((prev * 31) ^ h) * 16777619) & 0xFFFFFFFF) % (1 << WORD_BITS))
        prev = h
    return sorted(out)


def words(chars, flags) -> list[tuple[int, int]]:
    """(FNV-1a-32 of its characters, its length) of each word, in order."""
    out = []
    h, n = 2166136261, 0
    for c, f in zip(chars, flags):
        if f & 1:
            h, n = 2166136261, 0
        h = ((h ^ c) * 16777619) & 0xFFFFFFFF
        n += 1
        if f & 2:
            out.append((h, n))
    return out


FNV64_BASIS = 0xCBF29CE484222325
M64 = (1 << 64) - 1


def _mix(k: int, v: int) -> int:
    """One FNV-1a-64 step over a 32-bit value."""
    return ((k ^ v) * 0x100000001B3) & M64


def _key(k: int) -> int:
    """MurmurHash3's 64-bit finaliser, bit 0 set (0 marks an empty slot of the compiled table)."""
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & M64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & M64
    return (k ^ (k >> 33)) | 1


def memory_keys(chars, flags, every: bool = False) -> list[int]:
    """Step 5: the segment's keys in the memory of known attacks. A segment of MEMORY_SPAN words
    or more is cut into runs of words, each the shortest that holds SHINGLE words and KEY_CHARS
    characters (about three English words, twelve CJK characters): one after another, or with
    ``every`` from every word (the keys stored for a training line: those of any cut of it). A
    shorter segment, or one where no run fits, is one key: its word count, then its words. Word
    hashes (:func:`words`) are combined by FNV-1a-64 over 32-bit values, then :func:`_key`: 64-bit
    keys, so that a line collides with a stored key by chance about once in 10¹⁴."""
    ws = words(chars, flags)
    if not ws:
        return []
    out = []
    i = 0
    while len(ws) >= MEMORY_SPAN:
        k, n, j = FNV64_BASIS, 0, i
        while j < len(ws) and (j - i < SHINGLE or n < KEY_CHARS):
            k = _mix(k, ws[j][0])
            n += ws[j][1]
            j += 1
        if j - i < SHINGLE or n < KEY_CHARS:
            break
        out.append(_key(k))
        i = i + 1 if every else j
    if not out:
        k = _mix(FNV64_BASIS, len(ws))
        for h, _n in ws:
            k = _mix(k, h)
        out = [_key(k)]
    return out


def known(keys: list[int], memory) -> bool:
    """Whether a segment is a known attack: more than half of its keys (:func:`memory_keys`, one
    after another) are in ``memory``."""
    return 2 * sum(k in memory for k in keys) > len(keys)


def line_keys(line: str, fold: dict[int, tuple[int, ...]], every: bool = False) -> list[int]:
    """:func:`memory_keys` of one line (no boundary inside)."""
    chars, flags, _n_words, _shape = stream(fold_points(line, fold))
    return memory_keys(chars, flags, every)


def n_features(k: int) -> int:
    return 1 + 4 * k + (1 + N_GAPS) * k * k + N_SHAPE + (1 << WORD_BITS)


def line_features(line: str, trie: Trie, k: int, fold: dict[int, tuple[int, ...]]) -> list[int]:
    """Sorted distinct feature ids of one line (no boundary inside); empty: the line is not scored."""
    chars, flags, n_words, shape = stream(fold_points(line, fold))
    return features(chars, flags, n_words, shape, trie, k)


# ---- weights file -------------------------------------------------------------------------------
# little-endian: MAGIC, u32 version, u32 k, i32 threshold, u32 n_entries, then per entry
# (u8 concept, u8 whole_word, u16 length, length × u32 code points), u32 n_weights, n_weights × i16,
# then the fold table: u32 n_fold, n_fold × u32 code points (strictly increasing),
# (n_fold + 1) × u32 offsets into the pool (offsets[0] = 0, non-decreasing, each run ≤ MAX_FOLD),
# offsets[n_fold] × u32 pool code points, then the memory: u32 n_memory, n_memory × u64 keys
# (odd, strictly increasing); nothing after it.

class Weights(NamedTuple):
    version: int
    k: int
    threshold: int
    entries: list
    weights: list
    fold: dict
    memory: frozenset


def write_weights(path, version: int, k: int, threshold: int, entries, weights, fold, memory) -> None:
    parts = [MAGIC, struct.pack("<IIiI", version, k, threshold, len(entries))]
    for points, concept, whole in entries:
        parts.append(struct.pack("<BBH", concept, whole, len(points)))
        parts.append(struct.pack(f"<{len(points)}I", *points))
    parts.append(struct.pack("<I", len(weights)))
    parts.append(struct.pack(f"<{len(weights)}h", *weights))
    keys = sorted(fold)
    offsets, pool = [0], []
    for c in keys:
        pool.extend(fold[c])
        offsets.append(len(pool))
    parts.append(struct.pack(f"<I{len(keys)}I{len(offsets)}I{len(pool)}I", len(keys), *keys, *offsets, *pool))
    parts.append(struct.pack(f"<I{len(memory)}Q", len(memory), *sorted(memory)))
    with open(path, "wb") as fh:
        fh.write(b"".join(parts))


def read_weights(path) -> Weights:
    """The weights file's contents (its checks are ``ckn.sanitizer``'s)."""
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not a ckn sanitizer weights file")
    version, k, threshold, n = struct.unpack_from("<IIiI", data, 8)
    if version != VERSION:
        raise ValueError(f"{path}: version {version}, this reference reads version {VERSION}")
    pos = 24
    entries = []
    for _ in range(n):
        concept, whole, length = struct.unpack_from("<BBH", data, pos)
        pos += 4
        entries.append((list(struct.unpack_from(f"<{length}I", data, pos)), concept, whole))
        pos += 4 * length
    (nw,) = struct.unpack_from("<I", data, pos)
    weights = list(struct.unpack_from(f"<{nw}h", data, pos + 4))
    pos += 4 + 2 * nw
    (nf,) = struct.unpack_from("<I", data, pos)
    keys = struct.unpack_from(f"<{nf}I", data, pos + 4)
    offsets = struct.unpack_from(f"<{nf + 1}I", data, pos + 4 + 4 * nf)
    pool = struct.unpack_from(f"<{offsets[-1]}I", data, pos + 8 + 8 * nf)
    fold = {c: tuple(pool[offsets[j]:offsets[j + 1]]) for j, c in enumerate(keys)}
    pos += 8 + 8 * nf + 4 * offsets[-1]
    (nm,) = struct.unpack_from("<I", data, pos)
    memory = frozenset(struct.unpack_from(f"<{nm}Q", data, pos + 4))
    return Weights(version, k, threshold, entries, weights, fold, memory)


def score(feats: list[int], weights: list[int]) -> int:
    return sum(weights[f] for f in feats)
