"""What every command shares: error reporting without tracebacks, exit codes, and `-o` files written only
on success.

Errors print as `file:line:col: error: message` (with the source line and a caret) or `tool: error: message`,
and exit 1. A Python traceback appears only with `TTC_DEBUG=1`. Every command but tt-opt reads its command line
with `ArgumentParser` (argparse's, whose errors are UsageErrors), which reads plain command lines itself and imports
argparse only for the others (help, errors).
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


class ArgumentParser:
    """argparse's parser (with -h/--help) whose usage errors raise UsageError, which `run` prints as `tool: error:
    message` with exit status 1, as every other bad input; argparse itself (with gettext, and the locale and
    shutil modules its first message and first formatter import: ~20 M instructions, 3-5% of a short command) is
    imported only where a command line needs it. `add_argument` records the arguments; `parse_args` reads a
    command line of the plain forms (`--name=value`, `--name value`, `-o value`, flags, positionals) here, and
    hands any other (help, a bad value, an abbreviation, `--`, a value that starts with '-') to argparse's parser,
    built from the same arguments: what argparse returns for a plain command line (test_startup compares the two on
    every command's arguments). Anything else asked of the parser is argparse's."""

    _KEYS = {"help", "metavar", "type", "choices", "default", "required", "dest", "action", "nargs"}

    def __init__(self, **kwargs):
        self._kwargs, self._arguments, self._parser = kwargs, [], None

    def add_argument(self, *names, **kwargs):
        self._arguments.append((names, kwargs))
        if self._parser is not None:
            self._parser.add_argument(*names, **kwargs)

    def argparse(self):
        """argparse's parser with these arguments (`action="boolean_optional"`: argparse's BooleanOptionalAction)."""
        if self._parser is None:
            import argparse

            class Parser(argparse.ArgumentParser):
                def error(self, message):
                    raise UsageError(message)

            self._parser = Parser(**self._kwargs)
            self._parser.register("action", "boolean_optional", argparse.BooleanOptionalAction)
            for names, kwargs in self._arguments:
                self._parser.add_argument(*names, **kwargs)
        return self._parser

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.argparse(), name)

    def parse_args(self, argv=None):
        argv = sys.argv[1:] if argv is None else list(argv)
        args = self._plain(argv)
        return args if args is not None else self.argparse().parse_args(argv)

    def _plain(self, argv):
        """The namespace argparse would return for `argv`, or None where argv is not of the plain forms."""
        import types

        if self._kwargs.keys() - {"prog", "description", "epilog", "formatter_class"}:
            return None
        options, positionals, values = {}, [], {}
        for names, kw in self._arguments:
            action = kw.get("action", "store")
            if kw.keys() - self._KEYS or action not in ("store", "store_true", "store_false", "boolean_optional") \
                    or isinstance(kw.get("type"), str):
                return None
            if names[0][0] != "-":
                if action != "store" or kw.get("nargs") not in (None, "?") or len(names) != 1:
                    return None
                positionals.append((names[0], kw))
                values[kw.get("dest", names[0])] = kw.get("default")
                continue
            if kw.get("nargs") is not None:
                return None
            long = [n for n in names if n.startswith("--")]
            dest = kw.get("dest") or (long[0] if long else names[0]).lstrip("-").replace("-", "_")
            default = {"store_true": False, "store_false": True}.get(action, kw.get("default"))
            values[dest] = default
            for n in names:
                options[n] = (dest, action, kw, None)
            if action == "boolean_optional":
                for n in long:
                    options["--no-" + n[2:]] = (dest, action, kw, False)
        if len(positionals) > 1 and any(kw.get("nargs") for _, kw in positionals):
            return None
        seen, given, i = set(), [], 0
        while i < len(argv):
            arg = argv[i]
            i += 1
            if arg[:1] != "-" or arg == "-":
                given.append(arg)
                continue
            name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
            if name not in options:
                return None
            dest, action, kw, const = options[name]
            if action != "store":
                if eq:
                    return None
                values[dest] = {"store_true": True, "store_false": False}.get(action, const is None)
            else:
                if not eq:
                    if i == len(argv) or argv[i][:1] == "-":
                        return None
                    value = argv[i]
                    i += 1
                values[dest] = self._value(kw, value)
                if values[dest] is self:
                    return None
            seen.add(dest)
        needed = [p for p in positionals if p[1].get("nargs") is None]
        if not len(needed) <= len(given) <= len(positionals):
            return None
        for (name, kw), arg in zip(positionals, given + [None] * len(positionals)):
            dest = kw.get("dest", name)
            if arg is not None:
                values[dest] = self._value(kw, arg)
            elif isinstance(kw.get("default"), str):  # an absent `nargs="?"`: its default, converted and checked
                values[dest] = self._value(kw, kw["default"])
            if values[dest] is self:
                return None
            seen.add(dest)
        for names, kw in self._arguments:
            if names[0][0] == "-" and kw.get("required") and options[names[0]][0] not in seen:
                return None
            dest = options[names[0]][0] if names[0][0] == "-" else None
            if dest is not None and dest not in seen and isinstance(kw.get("default"), str) and "type" in kw:
                values[dest] = self._value(kw, kw["default"], check=False)  # argparse converts a string default
                if values[dest] is self:
                    return None
        return types.SimpleNamespace(**values)

    def _value(self, kw, text, check=True):
        """argparse's value for `text` (its `type`, then its `choices`); the parser itself where argparse would
        report an error."""
        try:
            value = kw["type"](text) if kw.get("type") is not None else text
        except Exception:
            return self
        if check and kw.get("choices") is not None and value not in kw["choices"]:
            return self
        return value


def int_range(low: int, high: int | None = None):
    """An argparse `type`: an integer in [low, high] (no upper bound without high), else a usage error such as
    `argument --opt-level: 5 is not in the range 0<=x<=4`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            from argparse import ArgumentTypeError

            raise ArgumentTypeError(f"invalid int value: '{text}'") from None
        if value < low or high is not None and value > high:
            from argparse import ArgumentTypeError

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
