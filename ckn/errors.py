"""Exception hierarchy: every error ckn raises on purpose derives from :class:`CknError`.

Each subclass also derives from the matching built-in, so ``except ValueError`` keeps working.
"""

__all__ = ["CknError", "CknValueError", "CknTypeError", "CknMemoryError"]


class CknError(Exception):
    """Root of every error ckn raises for bad input or exhausted resources."""


class CknValueError(CknError, ValueError):
    """An argument has the right type but breaks a documented rule."""


class CknTypeError(CknError, TypeError):
    """An argument has the wrong type."""


class CknMemoryError(CknError, MemoryError):
    """A working buffer could not be allocated."""
