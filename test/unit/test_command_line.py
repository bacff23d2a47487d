"""Every command's bad command line: one `tool: error: message` line, exit status 1, no traceback.

The commands but tt-opt read their arguments with `ttc.driver.cli.ArgumentParser` (argparse); tt-opt parses
LLVM's cl syntax itself. Each case runs the command in a fresh process, as its console script does, so that an
import or parser mistake shows as it would to a user.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KERNEL = str(ROOT / "kernels" / "vector_add.py")
SPEC = str(ROOT / "kernels" / "vector_add.json")
TTIR = str(ROOT / "test" / "fixtures" / "triton" / "vector_add.ttir")

CASES = [  # (command, argv, the message after `command: error: `)
    # an unknown option
    ("tt-opt", [TTIR, "--bogus"],
     "unknown command line argument '--bogus'; try 'tt-opt --help' or 'tt-opt --list-passes'"),
    ("tt-frontend", [KERNEL, "-k", "add_kernel", "-s", "i32", "--bogus"], "unrecognized arguments: --bogus"),
    ("tt-translate", ["--target=ptx", "--bogus"], "unrecognized arguments: --bogus"),
    ("tt-as", ["--bogus"], "unrecognized arguments: --bogus"),
    ("tt-run", [TTIR, "--spec", SPEC, "--bogus"], "unrecognized arguments: --bogus"),
    ("tt-compile", [KERNEL, "-k", "add_kernel", "--bogus"], "unrecognized arguments: --bogus"),
    ("tt-tune", [KERNEL, "-k", "add_kernel", "--spec", SPEC, "--bogus"], "unrecognized arguments: --bogus"),
    # a bad value: not an int, out of range, not a choice
    ("tt-frontend", [KERNEL, "-k", "add_kernel", "-s", "i32", "--arch", "x"],
     "argument --arch: invalid int value: 'x'"),
    ("tt-translate", ["--target=sass"], "argument --target: invalid choice: 'sass' (choose from 'llvmir', 'ptx')"),
    ("tt-as", ["--opt-level", "5"], "argument --opt-level: 5 is not in the range 0<=x<=4"),
    ("tt-as", ["--maxrregcount", "0"], "argument --maxrregcount: 0 is not in the range x>=1"),
    ("tt-run", [TTIR, "--spec", SPEC, "--bench", "--warmup", "-1"], "argument --warmup: -1 is not in the range x>=0"),
    ("tt-run", [TTIR, "--spec", SPEC, "--bench", "--rep", "x"], "argument --rep: invalid int value: 'x'"),
    ("tt-compile", [KERNEL, "-k", "add_kernel", "--num-warps", "x"], "argument --num-warps: invalid int value: 'x'"),
    ("tt-tune", [KERNEL, "-k", "add_kernel", "--spec", SPEC, "-j", "x"], "argument -j/--jobs: invalid int value: 'x'"),
    # a missing file argument, or a file that is not there
    ("tt-frontend", ["-k", "add_kernel", "-s", "i32"], "the following arguments are required: FILE"),
    ("tt-frontend", ["missing.py", "-k", "add_kernel", "-s", "i32"],
     "cannot open input file 'missing.py': No such file or directory"),
    ("tt-translate", ["missing.ttgir", "--target=ptx"],
     "cannot open input file 'missing.ttgir': No such file or directory"),
    ("tt-as", ["missing.ptx"], "cannot open input file 'missing.ptx': No such file or directory"),
    ("tt-run", ["--spec", SPEC], "the following arguments are required: KERNEL"),
    ("tt-run", ["--spec", SPEC, "--interpret", "missing.ttir"],
     "could not open input file 'missing.ttir': No such file or directory"),
    ("tt-compile", ["-k", "add_kernel", "-s", "i32"], "the following arguments are required: KERNEL.py"),
    ("tt-tune", ["-k", "add_kernel", "--spec", SPEC], "the following arguments are required: KERNEL.py"),
    # a missing option
    ("tt-frontend", [KERNEL, "-s", "i32"], "the following arguments are required: -k/--kernel"),
    ("tt-translate", [TTIR], "the following arguments are required: --target"),
    ("tt-run", [TTIR], "the following arguments are required: --spec"),
]


def command(name: str, *argv: str, cwd=None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TTC_DEBUG"}
    return subprocess.run([sys.executable, "-m", f"ttc.tools.{name.replace('-', '_')}", *argv], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True)


@pytest.mark.parametrize("name, argv, message", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_usage_error(tmp_path, name, argv, message):
    proc = command(name, *argv, cwd=tmp_path)
    assert (proc.returncode, proc.stderr) == (1, f"{name}: error: {message}\n"), proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize("name", ["tt-frontend", "tt-translate", "tt-as", "tt-run", "tt-compile", "tt-tune"])
def test_help(tmp_path, name):
    """-h and --help print argparse's help (usage line first) and exit 0."""
    for flag in ("-h", "--help"):
        proc = command(name, flag, cwd=tmp_path)
        assert proc.returncode == 0 and proc.stdout.startswith(f"usage: {name} ") and proc.stderr == "", proc.stderr


def test_end_runs_atexit_flushes_and_keeps_the_code():
    """`cli.end` (every command's last step): the atexit handlers run (ttc's dataclass code cache is saved by one),
    buffered output is written, the code is the process's; with QUICK_EXIT off it raises SystemExit instead."""
    code = ("import atexit, sys\nfrom ttc.driver import cli\natexit.register(lambda: sys.stdout.write('atexit'))\n"
            "sys.stdout.write('out ')\n"
            "if sys.argv[1] == 'off':\n    cli.QUICK_EXIT = False\n    try:\n        cli.end(4)\n"
            "    except SystemExit as e:\n        sys.stdout.write(f'SystemExit {e.code} ')\n        sys.exit(5)\n"
            "cli.end(3)\n")
    on = subprocess.run([sys.executable, "-c", code, "on"], capture_output=True, text=True)
    assert (on.returncode, on.stdout, on.stderr) == (3, "out atexit", "")
    off = subprocess.run([sys.executable, "-c", code, "off"], capture_output=True, text=True)
    assert (off.returncode, off.stdout) == (5, "out SystemExit 4 atexit")
