"""lit configuration: RUN lines are written as in Triton's tests; `FileCheck` runs the `filecheck` package.
Tests that need a GPU say `REQUIRES: cuda-gpu` (set by TTC_LIT_GPU=1/0, else by asking the CUDA driver)."""

import hashlib
import os
import tempfile

import lit.formats

config.name = "ttc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".ttir", ".ttgir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
# Outputs (%t) outside the tree, one folder per checkout: two checkouts' runs at once do not share a %t
_checkout = hashlib.sha1(os.path.realpath(config.test_source_root).encode()).hexdigest()[:10]
config.test_exec_root = os.path.join(os.environ.get("TTC_LIT_OUT") or os.path.join(tempfile.gettempdir(),
                                                                                   f"ttc-lit-{_checkout}"), "lit")
config.substitutions.append(("FileCheck", "filecheck"))
for var in ("PATH", "HOME", "TTC_DEBUG", "PYTHONPATH", "VIRTUAL_ENV"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def _has_gpu() -> bool:
    if os.environ.get("TTC_LIT_GPU") in ("0", "1"):
        return os.environ["TTC_LIT_GPU"] == "1"
    try:
        from cuda.bindings import driver

        return driver.cuInit(0)[0] == driver.CUresult.CUDA_SUCCESS and driver.cuDeviceGetCount()[1] > 0
    except Exception:
        return False


if _has_gpu():
    config.available_features.add("cuda-gpu")
