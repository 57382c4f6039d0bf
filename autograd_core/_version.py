"""The one place the release number is written: pyproject.toml reads it at build time
(``[tool.setuptools.dynamic]``) and ``autograd_core.__version__`` wraps it."""
__version__ = "0.1.0"
