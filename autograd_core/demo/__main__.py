"""``python -m autograd_core.demo``: see autograd_core/demo/_run.py."""
import sys

from autograd_core.demo._run import main

sys.exit(main())
