"""A fork server for the test suite: ttc's commands (and `filecheck`, `lit`) without a Python start-up per call.

The suite starts each command a thousand times (lit RUN lines, pipes), and each fresh process spends about a
second importing ttc. This server imports every ttc module once, then forks a child per call; the child takes
the caller's argv, environment, working directory, umask and stdin/stdout/stderr (passed as file descriptors),
runs the command's installed entry point and reports its exit status. A tiny client script stands in for each
command on PATH (`python -I -S`, about 20 ms), so lit and bash run the RUN lines and pipes unchanged.

    python test/toolserver.py DIR   # makes DIR/sock and DIR/bin/{tt-opt,...,filecheck,lit}; prints "ready"

Used by test/unit/conftest.py (`tool_path`); `lit test/lit` and the installed commands do not use it.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import signal
import socket
import sys

COMMANDS = {  # command -> (module, entry point), as pyproject.toml's [project.scripts] installs them
    "tt-opt": ("ttc.tools.tt_opt", "entry"),
    "tt-frontend": ("ttc.tools.tt_frontend", "entry"),
    "tt-run": ("ttc.tools.tt_run", "entry"),
    "tt-translate": ("ttc.tools.tt_translate", "entry"),
    "tt-as": ("ttc.tools.tt_as", "entry"),
    "tt-compile": ("ttc.tools.tt_compile", "entry"),
    "filecheck": ("filecheck.main", "main"),
    "lit": ("lit.main", "main"),  # test_lit.py's runs of lit itself
}

CLIENT = '''#!{python} -IS
import json, os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
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
msg = json.dumps({{"cmd": {cmd!r}, "argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ), "umask": umask,
                  "fds": fds}}).encode()
socket.send_fds(s, [len(msg).to_bytes(8, "little") + msg], fds)
reply = b""
while chunk := s.recv(64):
    reply += chunk
sys.exit(int(reply) if reply else 70)
'''


def _recv(conn: socket.socket) -> tuple[dict, list[int]]:
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    size = int.from_bytes(data[:8], "little")
    data = data[8:]
    while len(data) < size:
        data += conn.recv(size - len(data))
    return json.loads(data), fds


def _child(conn: socket.socket) -> int:
    """Become the command the client stands for; return its exit status."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the server's handler is not the command's
    msg, fds = _recv(conn)
    for fd, target in zip(fds, msg["fds"]):
        os.dup2(fd, target)
        os.close(fd)
    for target in {0, 1, 2} - set(msg["fds"]):
        os.close(target)
    os.chdir(msg["cwd"])
    os.umask(msg["umask"])
    os.environ.clear()
    os.environ.update(msg["env"])
    sys.argv = [msg["argv"][0]] + msg["argv"][1:]
    sys.stdin = sys.__stdin__ = open(0, "r", closefd=False) if 0 in msg["fds"] else None
    sys.stdout = sys.__stdout__ = open(1, "w", closefd=False) if 1 in msg["fds"] else None
    sys.stderr = sys.__stderr__ = open(2, "w", closefd=False, errors="backslashreplace", buffering=1) \
        if 2 in msg["fds"] else None
    module, attr = COMMANDS[msg["cmd"]]
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


def serve(directory: str) -> None:
    """Import everything, write the clients, then fork a child per connection until killed."""
    import gc

    for package in ("ttc", "ttc.passes", "ttc.tools"):  # the last two live in passes/ and tools/
        path = importlib.import_module(package).__path__
        for info in pkgutil.walk_packages(path, package + "."):
            importlib.import_module(info.name)
    for module in [m for m, _ in COMMANDS.values()] + ["lit.formats", "lit.worker", "lit.TestRunner"]:
        importlib.import_module(module)
    importlib.import_module("ttc.driver.cli").QUICK_EXIT = False  # entry points return here, to report their code
    gc.collect()
    gc.freeze()  # the children share these pages instead of copying them as the collector touches them
    sock = os.path.join(directory, "sock")
    os.makedirs(os.path.join(directory, "bin"), exist_ok=True)
    for cmd in COMMANDS:
        path = os.path.join(directory, "bin", cmd)
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
                    code = _child(conn)
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
