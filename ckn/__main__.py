"""``python -m ckn``: see :mod:`ckn.cli`."""
from ckn.cli import main

raise SystemExit(main())
