"""The installed version of ckn (one place; pyproject.toml reads it)."""

__version__ = "0.2.0.dev0"
