# What every op family module starts with: the core's vocabulary (tensor.pxd:
# making tensors, argument checks, saving, recording, the in-place driver, OPS).
cimport cython
cimport numpy as cnp

from autograd_core._core.csrc cimport *
from autograd_core._core.dtype cimport *
from autograd_core._core.tensor cimport *

import builtins
import warnings

import numpy as np

from autograd_core._core.tensor import name_node_types

cnp.import_array()
