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

from ttc.cli import UsageError, write_output


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
