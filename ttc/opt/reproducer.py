"""Reproducers: when a pass fails or raises, tt-opt saves the input IR and the pipeline in one file, as MLIR's
crash reproducer does, and `tt-opt --run-reproducer FILE` replays it.

The file is the input module printed with its locations (so the replay reports the same `file:line:col`),
followed by MLIR's file metadata naming the pipeline:

    {-#
      external_resources: {
        mlir_reproducer: {
          pipeline: "builtin.module(make-ttgir{...})",
          disable_threading: true,
          verify_each: true
        }
      }
    #-}

It goes to `$TRITON_REPRODUCER_PATH` (Triton's variable), else to a new temporary file.
"""

from __future__ import annotations

import json
import os
import tempfile

from ttc.driver.cli import UsageError, write_output


def render(module_text: str, pipeline: str) -> str:
    return (
        module_text.rstrip("\n")
        + "\n\n{-#\n  external_resources: {\n    mlir_reproducer: {\n"
        + f"      pipeline: {json.dumps(pipeline)},\n"
        + "      disable_threading: true,\n      verify_each: true\n    }\n  }\n#-}\n"
    )


def write(module_text: str, pipeline: str, index: int = 0) -> str:
    """Write a reproducer; returns its path. The one of chunk `index` > 0 of --split-input-file goes to
    `<TRITON_REPRODUCER_PATH>.<index>`."""
    text = render(module_text, pipeline)
    path = os.environ.get("TRITON_REPRODUCER_PATH")
    if path:
        path = f"{path}.{index}" if index else path
        write_output(path, text)
        return path
    fd, path = tempfile.mkstemp(prefix="tt-opt-reproducer-", suffix=".mlir")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def pipeline_of(path: str, resources: dict) -> str:
    """The pipeline a reproducer file names (from its parsed `external_resources`)."""
    entry = resources.get("mlir_reproducer", {})
    pipeline = entry.get("pipeline")
    if not isinstance(pipeline, str):
        raise UsageError(f"'{path}' is not a reproducer: it has no "
                         "'{-# external_resources: { mlir_reproducer: { pipeline: \"...\" } } #-}'")
    return pipeline


def save(name: str, text: str, pm, index: int = 0, allow_unregistered: bool = False):
    """Write the reproducer of a failed pipeline (`text`, its input, as parsed, with its locations, and the
    pipeline of `pm`); returns the note that names it. `allow_unregistered` as the input was read."""
    from ttc.ir.diagnostics import Diagnostic
    from ttc.ir.printer import print_ir
    from ttc.ir.parser import parse
    from ttc.opt.passmanager import pipeline_text

    where = f"pipeline failed while executing '{pm.current.name}'"
    if pm.overridden:
        where += " (on a stage read from TRITON_OVERRIDE_DIR: replay with TRITON_KERNEL_OVERRIDE=1)"
    module = parse(text, name, verify=False, allow_unregistered=allow_unregistered)
    try:
        path = write(print_ir(module, debuginfo=True), pipeline_text(pm.passes), index)
    except (UsageError, OSError) as e:  # the pass's own error matters more: report it, and say why there is none
        return Diagnostic(name, 0, 0, f"{where}: no reproducer: {e}", "note")
    return Diagnostic(name, 0, 0, f"{where}: reproducer generated at '{path}' (replay: tt-opt --run-reproducer {path})", "note")
