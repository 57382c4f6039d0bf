"""Sphinx configuration: sphinx itself and this project's one local extension
(_ext/apiref.py, which writes the API reference pages from the public namespaces)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "_ext"))
# Document the checkout's in-place build when it has one, the installed package
# otherwise, never the checkout's unbuilt sources: the rule of tests/_source_tree.py.
sys.path.insert(0, os.path.join(ROOT, "tests"))
import _source_tree  # noqa: E402

if _source_tree.built_in_place():
    sys.path.insert(0, ROOT)
else:
    _source_tree.prefer_installed()

import autograd_core  # noqa: E402

project = "autograd_core"
author = "The autograd_core developers"
copyright = "2026, The autograd_core developers"
release = str(autograd_core.__version__)
version = release

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "apiref", "mdinclude"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_static_path = []
autodoc_member_order = "bysource"
autodoc_default_options = {}
# the signatures are PyTorch's: show them as written, without type evaluation
autodoc_typehints = "signature"
autoclass_content = "class"
