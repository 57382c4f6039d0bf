"""The inventory of tests/pytorch_autograd: at least 300 PyTorch tests followed (one test
function here per PyTorch test, same name), and every PyTorch test not followed listed in
NOT_FOLLOWED.md with a reason.  Names that PyTorch uses in two classes (one followed,
the other not) are allowed in both lists."""
import ast
import pathlib
import re

HERE = pathlib.Path(__file__).parent
# same name, different PyTorch classes: TestAutograd vs TestSelectiveActivationCheckpoint,
# TestViewOps vs TestAutogradMultipleDispatch
SAME_NAME_IN_TWO_CLASSES = {"test_version_counter", "test_view_copy"}


def followed_names():
    names = set()
    for path in sorted(HERE.glob("test_pta_*.py")):
        if path.name == "test_pta_inventory.py":
            continue
        for node in ast.parse(path.read_text()).body:
            defs = node.body if isinstance(node, ast.ClassDef) else [node]
            names.update(d.name for d in defs
                         if isinstance(d, ast.FunctionDef) and d.name.startswith("test_"))
    return names


def not_followed():
    entries = re.findall(r"^- `([^`]+)` — (.+)$", (HERE / "NOT_FOLLOWED.md").read_text(), re.M)
    return {name.split(" ")[0]: reason for name, reason in entries}


def test_at_least_300_followed():
    assert len(followed_names()) >= 300, len(followed_names())


def test_not_followed_have_reasons_and_are_not_followed():
    nf = not_followed()
    assert len(nf) > 100
    for name, reason in nf.items():
        assert len(reason) > 20 and "fails here" not in reason, name
    both = (set(nf) & followed_names()) - SAME_NAME_IN_TWO_CLASSES
    assert not both, sorted(both)
