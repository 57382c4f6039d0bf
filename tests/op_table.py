"""The op table: every family's entries in one list, for test_ops_differential.py and
test_gradcheck.py.

The format (Case, OpSpec, domains, input building) is in op_spec.py; the entries are in
one module per op family, each importing only op_spec.  This module imports the
families and nothing imports it back.
"""
import op_table_core
import op_table_elementwise
import op_table_nn
import op_table_reduce_linalg
import op_table_shape_index

# The order fixes the order of the tests (core first, as before the split).
FAMILIES = (op_table_core, op_table_shape_index, op_table_elementwise, op_table_reduce_linalg,
            op_table_nn)

OPS = [spec for family in FAMILIES for spec in family.OPS]


def _allowlist():
    merged = {}
    for family in FAMILIES:
        for name, reason in getattr(family, "GRAD_FN_ALLOWLIST", {}).items():
            assert name not in merged, f"{name} allowlisted by two families"
            merged[name] = reason
    return merged


# Node classes no entry's output carries, each with the reason (from the families).
GRAD_FN_ALLOWLIST = _allowlist()
