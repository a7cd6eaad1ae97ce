"""Adapters that run :class:`ckn.Packer` where users already are.

Each submodule imports its framework, so import the one you need (its optional extra installs
the framework): ``ckn.integrations.langchain`` (``pip install 'context-knapsack[langchain]'``),
``ckn.integrations.llama_index`` (``ckn[llama-index]``), ``ckn.integrations.haystack``
(``ckn[haystack]``) and ``ckn.integrations.dask`` (``ckn[dask]``). This package itself imports
nothing. See docs/integrations.md.
"""
