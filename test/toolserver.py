"""A fork server for the test suite: ttc's commands (and `filecheck`, `lit`) without a Python start-up per call.

The suite starts each command a thousand times (lit RUN lines, pipes), and each fresh process spends about a
second importing ttc. This server imports every ttc module once, then forks a child per call; the child takes
the caller's argv, environment, working directory, umask and stdin/stdout/stderr (passed as file descriptors),
runs the command's installed entry point and reports its exit status. A tiny client script stands in for each
command on PATH (`python -I -S` importing only built-in modules, about 15 ms of CPU), so lit and bash run the RUN
lines and pipes unchanged. Inside a forked `lit`, the RUN lines' commands skip the client: lit's `subprocess.Popen`
forks the lit process itself (ttc is imported there too) and runs the command in the child, its stdio, working
directory, environment and exit status as the client would give it (`_LitPopen`).

    python test/toolserver.py DIR   # makes DIR/sock and DIR/bin/{tt-opt,...,filecheck,lit}; prints "ready"

Used by test/unit/conftest.py (`tool_path`); `lit test/lit` and the installed commands do not use it.
"""

from __future__ import annotations

import gc
import importlib
import marshal
import os
import pkgutil
import signal
import socket
import subprocess
import sys

COMMANDS = {  # command -> (module, entry point), as pyproject.toml's [project.scripts] installs them
    "tt-opt": ("ttc.tools.tt_opt", "entry"),
    "tt-frontend": ("ttc.tools.tt_frontend", "entry"),
    "tt-run": ("ttc.tools.tt_run", "entry"),
    "tt-translate": ("ttc.tools.tt_translate", "entry"),
    "tt-as": ("ttc.tools.tt_as", "entry"),
    "tt-compile": ("ttc.tools.tt_compile", "entry"),
    "tt-tune": ("ttc.tools.tt_tune", "entry"),
    "filecheck": ("filecheck.main", "main"),
    "lit": ("lit.main", "main"),  # test_lit.py's runs of lit itself
}

CLIENT = '''#!{python} -IS
import _socket, marshal, os, sys
s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
s.connect({sock!r})
fds = []
for fd in (0, 1, 2):
    try:
        os.fstat(fd)
        fds.append(fd)
    except OSError:
        pass
umask = os.umask(0)
os.umask(umask)
msg = marshal.dumps(({cmd!r}, sys.argv, os.getcwd(), dict(os.environ), umask, fds))
data = len(msg).to_bytes(8, "little") + msg
rights = b"".join(fd.to_bytes(4, sys.byteorder) for fd in fds)  # C ints, as socket.send_fds packs them
sent = s.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)])
s.sendall(data[sent:])
reply = b""
while chunk := s.recv(64):
    reply += chunk
sys.exit(int(reply) if reply else 70)
'''  # built-in modules only (json and socket would double its start-up)


def _recv(conn: socket.socket) -> tuple[tuple, list[int]]:
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    size = int.from_bytes(data[:8], "little")
    data = data[8:]
    while len(data) < size:
        data += conn.recv(size - len(data))
    return marshal.loads(data), fds


def _run(cmd: str, argv: list[str]) -> int:
    """Run a command's entry point in this process, on fds 0-2 as they are now; its exit status."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the server's handler is not the command's
    sys.argv = list(argv)
    sys.stdin = sys.__stdin__ = open(0, "r", closefd=False) if _is_open(0) else None
    sys.stdout = sys.__stdout__ = open(1, "w", closefd=False) if _is_open(1) else None
    sys.stderr = sys.__stderr__ = open(2, "w", closefd=False, errors="backslashreplace", buffering=1) \
        if _is_open(2) else None
    module, attr = COMMANDS[cmd]
    try:
        getattr(importlib.import_module(module), attr)()
        code = 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            code = e.code or 0
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    return importlib.import_module("ttc.driver.cli").finish(code)  # atexit handlers, flushes: as a command's exit


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


def _child(conn: socket.socket, bindir: str) -> int:
    """Become the command the client stands for; return its exit status."""
    (cmd, argv, cwd, env, umask, sent), fds = _recv(conn)
    for fd, target in zip(fds, sent):
        os.dup2(fd, target)
        os.close(fd)
    for target in {0, 1, 2} - set(sent):
        os.close(target)
    os.chdir(cwd)
    os.umask(umask)
    os.environ.clear()
    os.environ.update(env)
    if cmd == "lit":  # this process is lit's alone: its tests run in it, and their commands fork from it
        import lit.run

        lit.run.Run._execute = _lit_in_process
        _LitPopen.bindir = bindir
        subprocess.Popen = _LitPopen
    return _run(cmd, argv)


def _lit_in_process(self, deadline) -> None:
    """`lit.run.Run._execute` without its pool of worker processes (a fork, three threads and the tests pickled
    both ways, for the one file test_lit.py gives it): each test runs in this process, as a pool worker runs it."""
    import lit.worker

    lit.worker.initialize(self.lit_config, {})
    for test in self.tests:
        self.progress_callback(lit.worker.execute(test))
        if test.isFailure():
            self.failures += 1
            if self.failures == self.max_failures:
                raise lit.run.MaxFailuresError()


class _LitPopen(subprocess.Popen):
    """`subprocess.Popen` in a forked lit: a command of ours (a client in `bindir`) runs in a fork of this process
    instead of an exec of its client, with what the exec would give it: the stdio Popen set up, every other
    descriptor closed, the working directory, environment and umask, argv[0] the client's path (as the script's
    own sys.argv[0]), and its exit status. Anything else is started as usual."""

    bindir = ""

    def _execute_child(self, args, executable, preexec_fn, close_fds, pass_fds, cwd, env, startupinfo, creationflags,
                       shell, p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite, *rest):
        argv = [args] if isinstance(args, (str, bytes)) else list(args)
        exe = executable or argv[0]
        if (not isinstance(exe, str) or os.path.dirname(exe) != self.bindir or os.path.basename(exe) not in COMMANDS
                or os.path.basename(exe) == "lit" or shell or preexec_fn or pass_fds or not close_fds
                or tuple(rest) != (True, None, None, None, -1, False, -1)[:len(rest)]):  # Popen's defaults
            return super()._execute_child(args, executable, preexec_fn, close_fds, pass_fds, cwd, env, startupinfo,
                                          creationflags, shell, p2cread, p2cwrite, c2pread, c2pwrite, errread,
                                          errwrite, *rest)
        for stream in (sys.stdout, sys.stderr):  # as multiprocessing does before its forks: no buffered text of
            if stream is not None:                # lit's reaches the child's stdout when its old stream is dropped
                stream.flush()
        pid = os.fork()
        if pid == 0:
            code = 127
            try:
                gc.freeze()  # no collection in the child finalizes an object of lit's (closing a reused fd)
                if c2pwrite == 0:  # as _posixsubprocess moves them, so that no dup2 overwrites another's source
                    c2pwrite = os.dup(c2pwrite)
                while errwrite in (0, 1):
                    errwrite = os.dup(errwrite)
                for fd, target in ((p2cread, 0), (c2pwrite, 1), (errwrite, 2)):
                    if fd not in (-1, target):
                        os.dup2(fd, target)
                os.closerange(3, os.sysconf("SC_OPEN_MAX"))  # close_fds, as the exec would
                if cwd is not None:
                    os.chdir(cwd)
                if env is not None:
                    os.environ.clear()
                    os.environ.update(env)
                code = _run(os.path.basename(exe), [exe] + argv[1:])
            except BaseException:
                import traceback

                traceback.print_exc()
            finally:
                os._exit(code)
        self.pid = pid
        self._child_created = True
        self._close_pipe_fds(p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)


def serve(directory: str) -> None:
    """Import everything, write the clients, then fork a child per connection until killed."""
    for package in ("ttc", "ttc.passes", "ttc.tools"):  # the last two live in passes/ and tools/
        path = importlib.import_module(package).__path__
        for info in pkgutil.walk_packages(path, package + "."):
            importlib.import_module(info.name)
    for module in [m for m, _ in COMMANDS.values()] + ["lit.formats", "lit.worker", "lit.TestRunner"]:
        importlib.import_module(module)
    importlib.import_module("ttc.driver.cli").QUICK_EXIT = False  # entry points return here, to report their code
    gc.collect()
    gc.freeze()  # the children share these pages instead of copying them as the collector touches them
    sock, bindir = os.path.join(directory, "sock"), os.path.join(directory, "bin")
    os.makedirs(bindir, exist_ok=True)
    for cmd in COMMANDS:
        path = os.path.join(bindir, cmd)
        with open(path, "w") as f:
            f.write(CLIENT.format(python=sys.executable, sock=sock, cmd=cmd))
        os.chmod(path, 0o755)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(sock)
    server.listen(64)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("ready", flush=True)
    try:
        while True:
            conn, _ = server.accept()
            if os.fork() == 0:
                server.close()
                try:
                    code = _child(conn, bindir)
                except BaseException:
                    code = 70
                try:
                    conn.sendall(str(code).encode())
                finally:
                    os._exit(0)
            conn.close()
            _reap(os.WNOHANG)
    finally:  # reaped children count in this process's CPU time (and so in its parent's), as fresh ones would
        _reap(0)


def _reap(flags: int) -> None:
    try:
        while os.waitpid(-1, flags)[0] > 0:
            pass
    except ChildProcessError:
        pass


if __name__ == "__main__":
    serve(sys.argv[1])
