"""What every command shares: error reporting without tracebacks, exit codes, and `-o` files written only
on success.

Errors print as `file:line:col: error: message` (with the source line and a caret) or `tool: error: message`,
and exit 1. A Python traceback appears only with `TTC_DEBUG=1`. Every command but tt-opt reads its command line
with `ArgumentParser` (argparse's, whose errors are UsageErrors); argparse is imported on first use of that name,
so that `tt-opt --version` does not pay for it.
"""

from __future__ import annotations

import gc
import os
import sys

# A command collects its youngest generation after this many new container objects, not Python's 700: importing
# xDSL and building IR create hundreds of thousands of objects that live to the end, and the default threshold
# scanned them over and over (1% of a small compile's instructions, 10% of the CPU time of bench/module_size.py's
# 17k-op module). Cycles still go; each collection is just rarer.
GC_THRESHOLD = 100_000


# Whether `end` ends the process at once (a command's console script) or raises SystemExit (a process that runs a
# command's entry point in-process and goes on: test/toolserver.py's forked children set it False).
QUICK_EXIT = True


def finish(code: int) -> int:
    """What Python's exit does before its tear-down: the atexit handlers run and stdout/stderr are flushed; the
    exit status, 120 where a flush fails (the reader of a pipe gone), as Python's exit gives."""
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            code = code or 120
    return code


def end(code: int):
    """End a command's process with `code`: `finish`, then the process ends at once (os._exit), without Python's
    tear-down of every module and object it built (60-200 ms after an xDSL pipeline, a sixth of a short tt-opt's
    wall time; nothing of it is observable) or the joins of threads whose work is over (tt-tune's pools)."""
    if not QUICK_EXIT:
        sys.exit(code)
    os._exit(finish(code))


class UsageError(Exception):
    """A bad command line, or an input that cannot be read: `tool: error: message`."""


def __getattr__(name: str):
    """`ArgumentParser`, built on first use (PEP 562): argparse's parser (with -h/--help) whose usage errors raise
    UsageError, which `run` prints as `tool: error: message` with exit status 1, as every other bad input."""
    if name != "ArgumentParser":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import argparse

    class ArgumentParser(argparse.ArgumentParser):
        def error(self, message):
            raise UsageError(message)

    globals()[name] = ArgumentParser
    return ArgumentParser


def int_range(low: int, high: int | None = None):
    """An argparse `type`: an integer in [low, high] (no upper bound without high), else a usage error such as
    `argument --opt-level: 5 is not in the range 0<=x<=4`."""

    def parse(text: str) -> int:
        from argparse import ArgumentTypeError

        try:
            value = int(text)
        except ValueError:
            raise ArgumentTypeError(f"invalid int value: '{text}'") from None
        if value < low or high is not None and value > high:
            bounds = f"{low}<=x<={high}" if high is not None else f"x>={low}"
            raise ArgumentTypeError(f"{value} is not in the range {bounds}")
        return value

    return parse


def run(tool: str, main, argv: list[str] | None = None) -> int:
    """Run `main(argv)` as a command: its exit code, errors printed without a traceback. `ttc.ir.diagnostics` is
    looked up only when something failed (a CompileError can only come from code that imported it), so that a
    command's start-up pays for nothing it does not use. The garbage collector runs with GC_THRESHOLD meanwhile."""
    argv = sys.argv[1:] if argv is None else argv
    threshold = gc.get_threshold()
    gc.set_threshold(GC_THRESHOLD, *threshold[1:])
    try:
        return main(argv) or 0
    except UsageError as e:
        sys.stderr.write(f"{tool}: error: {e}\n")
        return 1
    except SystemExit as e:  # argparse's -h/--help
        return e.code if isinstance(e.code, int) else 0 if e.code is None else 1
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # a CompileError, else an internal error: still no traceback unless asked for
        diagnostics = sys.modules.get("ttc.ir.diagnostics")
        if diagnostics is not None and isinstance(e, diagnostics.CompileError):
            sys.stderr.write(e.render() + "\n")
            return 1
        if os.environ.get("TTC_DEBUG") == "1":
            import traceback

            traceback.print_exc()
        else:
            sys.stderr.write(f"{tool}: error: internal error: {type(e).__name__}: {e} (set TTC_DEBUG=1 for a traceback)\n")
        return 1
    finally:
        gc.set_threshold(*threshold)


def env_on(name: str) -> bool:
    """Whether an environment switch such as TRITON_KERNEL_DUMP is on (1, true, on, yes)."""
    return os.environ.get(name, "").strip().lower() in ("1", "true", "on", "yes")


def parse_ptx_version(text: str | None) -> int | None:
    """`80` or `8.0` -> 80."""
    if text is None:
        return None
    t = text.strip()
    try:
        if "." in t:
            major, minor = t.split(".", 1)
            return int(major) * 10 + int(minor)
        return int(t)
    except ValueError:
        raise UsageError(f"invalid PTX version '{text}' (expected e.g. 8.0 or 80)") from None


def read_input(path: str | None) -> tuple[str, str]:
    """(name for diagnostics, text) of a file, or of stdin for `-` or no path."""
    if path in (None, "-"):
        return "<stdin>", sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return path, f.read()
    except OSError as e:
        raise UsageError(f"cannot open input file '{path}': {e.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"input file '{path}' is not UTF-8 text") from None


def write_output(path: str | None, data: str | bytes) -> None:
    """Write to stdout, or atomically to `path` (a temp file renamed into place, so that a failure never
    leaves a half-written output); a path that is neither a regular file nor absent (`/dev/null`, a pipe) is
    written in place: renaming onto it would replace the device with a file (as root, /dev/null itself)."""
    if path in (None, "-"):
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
        else:
            sys.stdout.write(data)
        sys.stdout.flush()
        return
    if os.path.isdir(path):
        raise UsageError(f"cannot write '{path}': it is a directory")
    data = data.encode() if isinstance(data, str) else data
    if os.path.exists(path) and not os.path.isfile(path):
        try:
            with open(path, "wb") as f:
                f.write(data)
        except OSError as e:
            raise UsageError(f"cannot write '{path}': {e.strerror}") from None
        return
    fd, tmp = _temporary(os.path.dirname(os.path.abspath(path)), os.path.basename(path), path)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as a plain open() would have made it, not mkstemp's 0600
        os.replace(tmp, path)
    except OSError as e:
        raise UsageError(f"cannot write '{path}': {e.strerror}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _temporary(directory: str, suffix: str, path: str) -> tuple[int, str]:
    """A new file `.tmp-<pid>-<n><suffix>` in `directory`, open for writing, mode 0600, as `tempfile.mkstemp`
    makes one (O_EXCL, a new name while one exists) without importing tempfile (with shutil, random and the
    compression modules: ~1.5% of a short tt-opt, whose other modules never need it)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    for n in range(10000):
        tmp = os.path.join(directory, f".tmp-{os.getpid()}-{n}{suffix}")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue
        except OSError as e:
            raise UsageError(f"cannot write '{path}': {e.strerror}") from None
    raise UsageError(f"cannot write '{path}': no free temporary name in '{directory}'")
