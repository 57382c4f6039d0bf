"""The fuzzer's worker process: reads seeds (JSON lines) on stdin, and for each writes
protocol lines on stdout: the generated program, a mark before autograd_core runs, and
the result.  If it dies (a crash of autograd_core) or stalls, the parent process knows
which program did it.  Run by campaign.py; not meant to be run by hand."""
import json
import os
import sys
import traceback

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [TESTS] + [p for p in sys.path if p != os.path.dirname(__file__)]

import torch  # noqa: E402

import autograd_core  # noqa: E402

from fuzz import gen, run  # noqa: E402

PREFIX = "@@FUZZ "


def send(out, **msg):
    out.write(PREFIX + json.dumps(msg) + "\n")
    out.flush()


def _selftest(seed):
    """For tests/test_fuzz.py: die or stall on a chosen seed, as a crashing or hanging
    autograd_core would."""
    if os.environ.get("AGC_FUZZ_SELFTEST_CRASH") == str(seed):
        os.abort()
    if os.environ.get("AGC_FUZZ_SELFTEST_HANG") == str(seed):
        import time
        time.sleep(3600)


def _result(prog, mm):
    return {"kind": mm.kind, "signature": run.signature(prog, mm),
            "context": run.context(prog, mm), "detail": mm.describe(prog),
            "statements": len(prog.stmts), "reproducer": run.reproducer(prog, mm)}


def one(seed, max_len, shrink, out):
    # the phase marks tell the parent what was running if this process dies
    send(out, seed=seed, event="phase", phase="generating")  # runs torch only
    prog = gen.generate(seed, torch, gen.available(autograd_core), max_len)
    send(out, seed=seed, event="program", source=prog.source("autograd_core"),
         statements=len(prog.stmts))
    send(out, seed=seed, event="phase", phase="torch")
    want = run.run(prog, torch)
    send(out, seed=seed, event="phase", phase="autograd_core")
    _selftest(seed)
    got = run.run(prog, autograd_core)
    mm = run.compare_traces(want, got)
    if mm is None:
        return send(out, seed=seed, event="done", result=None)
    send(out, seed=seed, event="mismatch", result=_result(prog, mm))
    send(out, seed=seed, event="phase", phase="shrinking")
    small, smm = run.shrink(prog, mm) if shrink else (prog, mm)
    send(out, seed=seed, event="done", result=_result(small, smm))


def _warm_up():
    """Pay each library's one-time cost of its first compiled call (PyTorch imports
    dynamo and builds its aot_eager backend: 1-3 s) while the worker is still starting,
    so the first program's clock measures the program and a slow start under load is
    no hang (a CI run reported the program after a hanging one as hung)."""
    for lib in (torch, autograd_core):
        x = lib.ones(2, requires_grad=True)
        lib.compile(lambda u: u.sin() * 2, backend="aot_eager")(x).sum().backward()


def main():
    torch.set_num_threads(1)
    _warm_up()
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    sys.stdout = sys.stderr  # nothing else may write to the protocol stream
    for line in sys.stdin:
        req = json.loads(line)
        try:
            one(req["seed"], req.get("max_len", 24), req.get("shrink", True), out)
        except Exception:  # noqa: BLE001  (a fault of the fuzzer itself, not a finding)
            send(out, seed=req["seed"], event="done", result={
                "kind": "internal", "signature": "internal error of the fuzzer",
                "context": [], "detail": traceback.format_exc()[-2000:], "statements": 0,
                "reproducer": ""})


if __name__ == "__main__":
    main()
