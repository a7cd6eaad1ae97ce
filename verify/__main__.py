"""``python -m verify``: see verify/README.md."""

from .runner import main

raise SystemExit(main())
