"""``python -m ckn {rank,sanitize,pack}``: JSON pool in, JSON out.

Exit status: 0 success; 2 bad input or usage, or input too large for the machine's memory (one
``ckn: error: …`` line on stderr, nothing written); 1 unexpected internal error. A closed stdout (``| head``) ends the run quietly.
"""

import argparse
import io
import json
import math
import os
import re
import stat
import sys
import tempfile
from importlib import resources

from ._version import __version__
from .batch import pack_lines
from .errors import CknError
from .jsonio import loads_strict
from .params import RELEVANCE_K, RELEVANCE_POWER
from .pipeline import Packer
from .tokenizer import ENCODINGS

__all__ = ["main"]

PROG = "python -m ckn"

EXAMPLES = """\
examples:
  python -m ckn pack --example --pretty
  python -m ckn pack --input pool.json --token-budget 4000 --output receipt.json
  python -m ckn pack --input pool.json --context-out context.txt
  python -m ckn pack --input pool.json --tokenizer cl100k_base --budget-scope context
  python -m ckn pack --input pool.json --tokenizer cl100k_base --explain explain.json
  cat pool.json | python -m ckn rank --input - --rrf-k 30
  python -m ckn sanitize --input pool.json --dedup-exact --pretty
"""

# (flag, parameter, parser, help)
_PARAMETER_FLAGS = (
    ("--token-budget", "token_budget", "integer", "ceiling on selected tokens (integer >= 0)"),
    ("--bm25-k1", "bm25_k1", "number", "BM25 term-frequency saturation (default 1.5)"),
    ("--bm25-b", "bm25_b", "number", "BM25 length normalisation, 0..1 (default 0.75)"),
    ("--rrf-k", "rrf_k", "number", "RRF constant (default 60)"),
    ("--rrf-weights", "rrf_weights", "weights",
     "per-list RRF weights as JSON or bm25=W,dense=W (default 1 and 1)"),
    ("--shingle-size", "shingle_size", "integer", "terms per MinHash shingle (default 3)"),
    ("--minhash-permutations", "minhash_permutations", "integer",
     "MinHash signature length (default 64)"),
    ("--near-dup-threshold", "near_dup_threshold", "number",
     "drop a chunk whose estimated similarity to a kept one is >= this (default 0.75)"),
    ("--redundancy-lambda", "redundancy_lambda", "number", "overlap discount, 0..1 (default 0.35)"),
    ("--utility-scale", "utility_scale", "number",
     "integer scale of knapsack values (default 10^12)"),
    ("--relevance-k", "relevance_k", "number",
     f"RRF constant of the knapsack value's relevance (default {RELEVANCE_K:g})"),
    ("--relevance-power", "relevance_power", "number",
     f"sharpening of the relevance (r / r_best)^p in knapsack values, 0..1000 (default {RELEVANCE_POWER:g})"),
    ("--top-k", "top_k", "integer", "only the first K surviving chunks compete for the budget"),
    ("--budget-scope", "budget_scope", "scope",
     "chunks: the budget counts chunk tokens; context: the whole emitted context, preamble "
     "and fences included (needs --tokenizer)"),
    ("--fence", "fence", "fence", "context fence format: full (default) or compact"),
    ("--max-memory", "max_memory", "bytes",
     "byte cap for the knapsack's working memory, e.g. 256M (default 256M)"),
)


class _UsageError(Exception):
    """Bad command line: reported as one ``ckn: error:`` line with exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(message)


_DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_BYTES = re.compile(r"([0-9]+)([KMG]i?B?|B)?", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def _integer(text: str) -> int:
    """ASCII digits only (no sign, underscore or other scripts' digits)."""
    if not _DIGITS.fullmatch(text):
        raise argparse.ArgumentTypeError(f"expected a non-negative integer (digits 0-9), got {text!r}")
    return int(text)


def _number(text: str) -> int | float:
    """A decimal number in ASCII (``30``, ``0.5``, ``1e-3``), finite."""
    if not _DECIMAL.fullmatch(text):
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}")
    if _DIGITS.fullmatch(text):
        return int(text)
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def _positive(text: str) -> int:
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
    return value


def _bytes(text: str) -> int:
    """A byte count: digits with an optional K, M or G suffix (powers of 1024)."""
    match = _BYTES.fullmatch(text)
    if not match:
        raise argparse.ArgumentTypeError(f"expected a byte count such as 268435456 or 256M, got {text!r}")
    return int(match.group(1)) * _UNITS[(match.group(2) or "")[:1].lower()]


def _one_of(*options):
    def parse(text: str) -> str:
        if text not in options:
            raise argparse.ArgumentTypeError(f"expected one of {', '.join(options)}, got {text!r}")
        return text
    return parse


def _weights(text: str) -> dict:
    if text.lstrip().startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise argparse.ArgumentTypeError(f"invalid JSON: {exc.msg}") from None
        except RecursionError:
            raise argparse.ArgumentTypeError("JSON nested too deeply to read") from None
    out = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep:
            raise argparse.ArgumentTypeError(f"expected bm25=W,dense=W, got {text!r}")
        out[key.strip()] = _number(value.strip())
    return out


_PARSERS = {"integer": _integer, "number": _number, "weights": _weights, "bytes": _bytes,
            "scope": _one_of("chunks", "context"), "fence": _one_of("full", "compact")}


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=(
        "Rank retrieved chunks (BM25 + dense cosine, RRF), redact prompt-injection lines, drop "
        "MinHash near-duplicates and pack the exact 0/1-knapsack optimum under a token budget."),
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"ckn {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{rank,sanitize,pack}")
    helps = {
        "rank": "print the fused ranking with per-list scores and ranks",
        "sanitize": "print redactions and dedup decisions in fused order",
        "pack": "print the receipt of the exact knapsack selection",
    }
    for name, help_text in helps.items():
        sub = commands.add_parser(name, help=help_text, description=help_text, epilog=EXAMPLES,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        source = sub.add_mutually_exclusive_group(required=True)
        source.add_argument("--input", metavar="FILE", help="pool JSON file, or - for stdin")
        if name == "pack":
            source.add_argument("--jsonl", metavar="FILE",
                                help="batch: one pool per line (- for stdin); one result line "
                                     "per pool, in order, to --output (default stdout)")
        source.add_argument("--example", action="store_true",
                            help="use the bundled 5-chunk worked example")
        sub.add_argument("--output", metavar="FILE",
                         help="write the JSON here (atomically) instead of stdout")
        if name == "pack":
            sub.add_argument("--context-out", metavar="FILE",
                             help="also write the packed, fenced context text here (atomically)")
            sub.add_argument("--explain", metavar="FILE",
                             help="also write the audit trail here: version, parameters, "
                                  "context_tokens, and per chunk its ranks, scores, value, "
                                  "weight and why it was or was not selected")
            sub.add_argument("--workers", metavar="N", type=_positive, default=1,
                             help="with --jsonl: worker processes (default 1)")
            sub.add_argument("--quiet", action="store_true",
                             help="with --jsonl: no progress bar and no summary on stderr")
            sub.add_argument("--preamble", metavar="TEXT", dest="preamble", default=None,
                             help="the context's preamble line ({nonce} is replaced by the nonce)")
            sub.add_argument("--no-preamble", dest="preamble", action="store_const", const=False,
                             help="leave the preamble out of the context")
        sub.add_argument("--tokenizer", metavar="NAME", type=_one_of(*ENCODINGS),
                         help="count candidate tokens with this encoding (cl100k_base or "
                              "o200k_base; needs pip install 'context-knapsack[tokens]'); "
                              "candidates then need no 'tokens'")
        sub.add_argument("--pretty", action="store_true", help="indent the JSON output")
        params = sub.add_argument_group("parameters (override the pool file)")
        for flag, dest, kind, help_text in _PARAMETER_FLAGS:
            params.add_argument(flag, dest=dest, type=_PARSERS[kind], metavar=kind.upper(),
                                help=help_text)
        params.add_argument("--dedup-exact", dest="dedup_exact", action="store_true", default=None,
                            help="confirm near-duplicates by exact Jaccard")
        params.add_argument("--no-dedup-exact", dest="dedup_exact", action="store_false",
                            help="trust the MinHash estimate alone (the default)")
        params.add_argument("--no-sanitize", dest="sanitize", action="store_false", default=None,
                            help="trusted text: redact nothing (blank chunks are still dropped)")
        params.add_argument("--no-dedup", dest="dedup", action="store_false", default=None,
                            help="no MinHash work: keep near-duplicates, no overlap discount")
    return parser


def _load_pool(args) -> dict:
    if args.example:
        text = resources.files("ckn").joinpath("worked_example.json").read_text("utf-8")
        name = "the bundled example"
    elif args.input == "-":
        name = "stdin"
        try:
            text = sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _UsageError(f"stdin: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    else:
        try:
            with open(args.input, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise _UsageError(f"cannot read {args.input}: {getattr(exc, 'strerror', None) or exc}") from None
        name = args.input
    return loads_strict(text, name)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _stage(path: str, text: str) -> tuple[str, str] | None:
    """Prepare writing ``text`` to ``path``: for a regular file (or a new one), a temporary
    file beside its real path (symlinks followed), with the mode the file has or, for a new
    file, the umask's; returns ``(temporary, real path)`` to rename later. For anything else
    (a FIFO, a character device, ``/dev/fd/N``) returns None: it is written in place."""
    try:
        st = os.stat(path)  # follows links, also /dev/fd/N to the pipe it names
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    else:
        if not stat.S_ISREG(st.st_mode):
            return None
        mode = stat.S_IMODE(st.st_mode)
    real = os.path.realpath(path)
    fd, tmp = tempfile.mkstemp(prefix=".ckn-", suffix=".tmp", dir=os.path.dirname(real))
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp, real


def _emit(outputs: list[tuple[str | None, str]]) -> None:
    """Write every (path, text) pair; None or ``-`` means stdout. Regular files are replaced
    atomically and only once every one of them is written; FIFOs and devices are written in
    place after that, then stdout."""
    staged, in_place = [], []
    try:
        for path, text in outputs:
            if path is not None and path != "-":
                ready = _stage(path, text)
                if ready is None:
                    in_place.append((path, text))
                else:
                    staged.append(ready)
        for tmp, real in staged:
            os.replace(tmp, real)
        staged.clear()
        for path, text in in_place:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    except OSError as exc:
        raise _UsageError(f"cannot write {exc.filename or 'output'}: {exc.strerror or exc}") from None
    finally:
        for tmp, _ in staged:
            if os.path.exists(tmp):
                os.unlink(tmp)
    for path, text in outputs:
        if path is None or path == "-":
            sys.stdout.write(text)
    sys.stdout.flush()


def _run(args) -> int:
    overrides = {dest: getattr(args, dest) for _, dest, _, _ in _PARAMETER_FLAGS}
    overrides["dedup_exact"] = args.dedup_exact
    overrides["sanitize"], overrides["dedup"] = args.sanitize, args.dedup
    overrides["preamble"] = getattr(args, "preamble", None)
    overrides = {k: v for k, v in overrides.items() if v is not None}
    if overrides.get("preamble") is False:
        overrides["preamble"] = None
    if getattr(args, "jsonl", None):
        return _run_jsonl(args, overrides)
    pool = _load_pool(args)
    if not isinstance(pool, dict):
        raise _UsageError("the pool must be a JSON object")
    packer = Packer(count_tokens=args.tokenizer)
    result = getattr(packer, args.command)(pool, **overrides)
    indent = 2 if args.pretty else None
    outputs = [(args.output, json.dumps(result.as_dict(), ensure_ascii=False, indent=indent) + "\n")]
    if getattr(args, "context_out", None):
        outputs.append((args.context_out, result.context))
    if getattr(args, "explain", None):
        outputs.append((args.explain, json.dumps(result.explain(), ensure_ascii=False,
                                                 indent=indent) + "\n"))
    _emit(outputs)
    if args.command == "pack" and result.params.budget_scope == "chunks":
        _note_context_size(result)
    return 0


def _run_jsonl(args, overrides: dict) -> int:
    """``pack --jsonl``: stream result lines in input order; exit 0, or 2 if a line was bad."""
    for flag in ("context_out", "explain"):
        if getattr(args, flag):
            raise _UsageError(f"--{flag.replace('_', '-')} is for one pool, not with --jsonl")
    Packer(count_tokens=args.tokenizer, **overrides)  # a bad option fails here, before output
    if args.jsonl == "-":
        source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="strict")
    else:
        try:
            source = open(args.jsonl, encoding="utf-8")
        except OSError as exc:
            raise _UsageError(f"cannot read {args.jsonl}: {exc.strerror or exc}") from None
    bad = done = 0
    with source, _Sink(args.output) as sink:
        lines = pack_lines(_read_lines(source, args.jsonl), workers=args.workers,
                           packer_options={"count_tokens": args.tokenizer}, overrides=overrides)
        for failed, line in _progress(lines, quiet=args.quiet):
            sink.write(line + "\n")
            done += 1
            bad += failed
    if not args.quiet:
        print(f"ckn: {done} pools, {done - bad} packed, {bad} bad", file=sys.stderr)
    return 2 if bad else 0


def _read_lines(source, name: str):
    try:
        yield from source
    except UnicodeDecodeError as exc:
        raise _UsageError(f"{name}: not UTF-8 text ({exc.reason})") from None


def _progress(lines, *, quiet: bool):
    """``lines`` with a tqdm progress bar on stderr when it is a terminal (tqdm optional)."""
    if quiet or not sys.stderr.isatty():
        return lines
    try:
        from tqdm import tqdm
    except ImportError:
        return lines
    return tqdm(lines, unit=" pools", file=sys.stderr)


class _Sink:
    """A streamed output: stdout (None or ``-``), a FIFO or device written in place, or a
    regular file written beside its real path and renamed over it when complete."""

    def __init__(self, path: str | None):
        self.path = path

    def __enter__(self):
        self.tmp = None
        if self.path is None or self.path == "-":
            self.file = sys.stdout
            return self
        try:
            staged = _stage(self.path, "")
            if staged is None:
                self.file = open(self.path, "w", encoding="utf-8")
            else:
                self.tmp, self.real = staged
                self.file = open(self.tmp, "a", encoding="utf-8")
        except OSError as exc:
            raise _UsageError(f"cannot write {exc.filename or self.path}: {exc.strerror or exc}") from None
        return self

    def write(self, text: str) -> None:
        self.file.write(text)

    def __exit__(self, kind, exc, tb):
        if self.file is sys.stdout:
            self.file.flush()
            return False
        self.file.close()
        if self.tmp is not None:
            if kind is None:
                os.replace(self.tmp, self.real)
            else:
                os.unlink(self.tmp)
        return False


def _note_context_size(result) -> None:
    """Under the chunk-scoped budget, say on stderr how large the emitted context is when it
    exceeds the budget (it adds a preamble and fences to the chunks)."""
    budget, size = result.params.token_budget, result.context_tokens
    if size is not None and size > budget:
        print(f"ckn: note: the emitted context is {size} tokens ({result.tokenizer}); the "
              f"{budget}-token budget counts chunk tokens only (--budget-scope context caps "
              f"the whole context)", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    try:
        args = _build_parser().parse_args(argv)
        return _run(args)
    except (_UsageError, CknError) as exc:
        print(f"ckn: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError:  # not a bug: the pool or a parameter is too large for this machine
        print("ckn: error: out of memory (the pool, or a parameter such as "
              "minhash_permutations, is too large for this machine)", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): silence the interpreter's flush at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - the one place that turns a bug into exit 1
        print(f"ckn: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
