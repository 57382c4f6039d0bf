"""Count valgrind memcheck reports with a frame in autograd_core's compiled modules.

    python tools/memcheck_filter.py LOG      # prints the count; the reports go to stderr

A report is the run of '==PID== ' lines from one error headline to the blank '==PID=='
line after its stack."""
import re
import sys

HEADLINE = re.compile(r"^==\d+== (Invalid |Conditional jump|Use of uninitialised|"
                      r"Syscall param|Mismatched |Source and destination overlap)")


def reports(lines):
    block = None
    for line in lines:
        if HEADLINE.match(line):
            block = [line]
        elif block is not None:
            if re.match(r"^==\d+== ?$", line.rstrip("\n")):
                yield block
                block = None
            else:
                block.append(line)
    if block:
        yield block


def main(path):
    with open(path, errors="replace") as f:
        ours = [b for b in reports(f) if any("autograd_core" in line for line in b)]
    for b in ours:
        sys.stderr.writelines(b + ["\n"])
    print(len(ours))


if __name__ == "__main__":
    main(sys.argv[1])
