"""Byte-compile ttc at install time, editable installs included.

pip byte-compiles the files of a regular install itself; an editable install (`pip install -e .`, the README's)
leaves the sources where they are, and without this every command would compile the modules it imports at
every start where Python may not write bytecode (PYTHONDONTWRITEBYTECODE=1, a read-only checkout): about 0.3 s
of each command's start-up. Everything else is in pyproject.toml.
"""

import compileall
from pathlib import Path

from setuptools import setup
from setuptools.command.editable_wheel import editable_wheel

ROOT = Path(__file__).resolve().parent


class EditableWheel(editable_wheel):
    def run(self):
        super().run()
        for folder in ("ttc", "passes", "tools"):  # the packages' folders (pyproject.toml's package-dir)
            compileall.compile_dir(str(ROOT / folder), quiet=1)


setup(cmdclass={"editable_wheel": EditableWheel})
