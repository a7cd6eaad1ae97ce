"""Exception hierarchy: every error ckn raises on purpose derives from :class:`CknError`.

Each subclass also derives from the matching built-in, so ``except ValueError`` keeps working.
Errors about a candidate pool name the JSON path of the bad field (``candidates[3].tokens``).
"""

__all__ = [
    "CknError",
    "CknMemoryError",
    "CknTypeError",
    "CknValueError",
    "InputError",
    "InputTypeError",
]


class CknError(Exception):
    """Root of every error ckn raises for bad input or exhausted resources."""


class CknValueError(CknError, ValueError):
    """An argument has the right type but breaks a documented rule."""


class CknTypeError(CknError, TypeError):
    """An argument has the wrong type."""


class CknMemoryError(CknError, MemoryError):
    """A working buffer could not be allocated."""


class _PathMixin:
    def __init__(self, path: str, rule: str):
        super().__init__(f"{path}: {rule}" if path else rule)
        self.path = path
        self.rule = rule


class InputError(_PathMixin, CknValueError):
    """A pool field or parameter breaks a rule; ``.path`` is its JSON path, ``.rule`` the rule."""


class InputTypeError(_PathMixin, CknTypeError):
    """A pool field or parameter has the wrong JSON type; ``.path`` and ``.rule`` as above."""
