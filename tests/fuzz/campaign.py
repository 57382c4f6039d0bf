"""Running many seeds in worker processes (fuzz/worker.py): a worker that dies while a
program runs is a crash of autograd_core on that program, one that stalls past the
timeout a hang; either way the worker is replaced and the campaign goes on."""
import json
import os
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFIX = "@@FUZZ "


@dataclass
class Finding:
    seed: int
    kind: str
    signature: str
    detail: str
    reproducer: str
    statements: int = 0
    context: list = field(default_factory=list)


class _Worker:
    def __init__(self, max_len, shrink):
        if TESTS not in sys.path:
            sys.path.insert(0, TESTS)
        from _subprocess import child_env
        env = child_env()
        env["PYTHONPATH"] = TESTS + os.pathsep + env["PYTHONPATH"]
        env["PYTHONFAULTHANDLER"] = "1"
        self.cwd = tempfile.mkdtemp(prefix="agc_fuzz_")  # an empty cwd: nothing to shadow
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(TESTS, "fuzz", "worker.py")], cwd=self.cwd,
            env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.max_len, self.shrink = max_len, shrink
        self.seed = None
        self.source = ""
        self.started = 0.0
        self.buf = ""

    def submit(self, seed):
        self.seed, self.source, self.started = seed, "", time.monotonic()
        self.phase, self.unshrunk = "starting", None
        self.proc.stdin.write(json.dumps({"seed": seed, "max_len": self.max_len,
                                          "shrink": self.shrink}) + "\n")
        self.proc.stdin.flush()

    def kill(self):
        try:
            self.proc.kill()
        except OSError:
            pass
        self.proc.wait()
        shutil.rmtree(self.cwd, ignore_errors=True)


def run_campaign(seeds, jobs=1, timeout=120.0, max_len=24, shrink=True, progress=None):
    """Findings (mismatches, crashes, hangs, fuzzer errors) of the programs of these
    seeds; progress(done, total, findings) is called after each program."""
    seeds = list(seeds)
    todo = list(reversed(seeds))
    findings, done = [], 0
    sel = selectors.DefaultSelector()
    workers = []

    def start():
        w = _Worker(max_len, shrink)
        sel.register(w.proc.stdout, selectors.EVENT_READ, w)
        workers.append(w)
        return w

    def feed(w):
        if todo:
            w.submit(todo.pop())
        else:
            w.seed = None

    def retire(w, kind):
        nonlocal done
        sel.unregister(w.proc.stdout)
        workers.remove(w)
        w.kill()
        if w.phase in ("starting", "generating", "torch"):
            # torch itself (the oracle) crashed or hung: nothing to compare
            findings.append(Finding(w.seed, "oracle " + kind, f"{kind} of torch (the oracle)",
                                    f"torch fails ({kind}) on the program of seed {w.seed}",
                                    f"# torch fails ({kind}) on this program\n" + w.source))
        elif w.phase == "shrinking" and w.unshrunk:
            r = w.unshrunk  # a shrinking candidate crashed: report the unshrunk difference
            findings.append(Finding(w.seed, r["kind"], r["signature"], r["detail"],
                                    r["reproducer"], r["statements"], r["context"]))
        else:
            findings.append(Finding(w.seed, kind, kind + " of autograd_core",
                                    f"the program of seed {w.seed} made autograd_core {kind}",
                                    "# a program on which autograd_core " + kind + "es\n"
                                    + w.source))
        done += 1
        if progress:
            progress(done, len(seeds), findings)
        if todo:
            feed(start())

    for _ in range(max(1, min(jobs, len(seeds)))):
        feed(start())
    while any(w.seed is not None for w in workers):
        for key, _ in sel.select(timeout=1.0):
            w = key.data
            chunk = os.read(w.proc.stdout.fileno(), 1 << 16).decode()
            if not chunk:  # the worker died
                if w.seed is not None:
                    retire(w, "crash")
                continue
            w.buf += chunk
            while "\n" in w.buf:
                line, w.buf = w.buf.split("\n", 1)
                if not line.startswith(PREFIX):
                    continue
                msg = json.loads(line[len(PREFIX):])
                if msg["event"] == "program":
                    w.source = msg["source"]
                elif msg["event"] == "phase":
                    w.phase = msg["phase"]
                    if w.phase == "generating":  # the clock starts when the work does
                        w.started = time.monotonic()
                elif msg["event"] == "mismatch":
                    w.unshrunk = msg["result"]
                elif msg["event"] == "done":
                    r = msg["result"]
                    if r:
                        findings.append(Finding(msg["seed"], r["kind"], r["signature"],
                                                r["detail"], r["reproducer"], r["statements"],
                                                r["context"]))
                    done += 1
                    if progress:
                        progress(done, len(seeds), findings)
                    feed(w)
        now = time.monotonic()
        for w in list(workers):
            # (a worker still starting, importing torch, gets a minute more)
            limit = timeout + (60 if w.phase == "starting" else 0)
            if w.seed is not None and now - w.started > limit:
                retire(w, "hang")
    for w in workers:
        w.proc.stdin.close()
        w.kill()
    return findings


def summary(findings, programs):
    """A report: one line per signature (count, first seed), then one minimal
    reproducer per signature."""
    by_sig = {}
    for f in sorted(findings, key=lambda f: (f.signature, f.statements, f.seed)):
        by_sig.setdefault(f.signature, []).append(f)
    lines = [f"{programs} programs, {len(findings)} with a difference, "
             f"{len(by_sig)} distinct signatures"]
    for sig, fs in sorted(by_sig.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"  {len(fs):5d}  {sig}   (seed {fs[0].seed})")
    for sig, fs in by_sig.items():
        lines += ["", "=" * 78, f"{sig}: {len(fs)} programs; the smallest (seed {fs[0].seed}):",
                  fs[0].reproducer]
    return "\n".join(lines)
