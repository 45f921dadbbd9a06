"""Integrations of megamoe with other libraries.

- ``megamoe.integrations.transformers``: an experts implementation named ``"megamoe"`` for
  Hugging Face transformers 5.x (``experts_implementation="megamoe"``).

Submodules import their library (torch, transformers) themselves; this package imports nothing.
"""
