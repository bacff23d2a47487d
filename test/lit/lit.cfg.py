"""lit configuration: RUN lines are written as in Triton's tests; `FileCheck` runs the `filecheck` package."""

import os

import lit.formats

config.name = "ttc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".ttir", ".ttgir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.environ.get("TTC_LIT_OUT", "/tmp/ttc-lit"), "lit")
config.substitutions.append(("FileCheck", "filecheck"))
for var in ("PATH", "HOME", "TTC_DEBUG", "PYTHONPATH", "VIRTUAL_ENV"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
