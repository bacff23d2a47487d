"""tt-run's launch specs: every kernels/*.json validates against the schema, and each kind of wrong spec (or
wrong command line) gives exactly one clear error line and exit code 1."""

import copy
import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest

from ttc.driver.cli import run
from ttc.runtime import spec as specs
from ttc.tools.tt_run import main

ROOT = Path(__file__).resolve().parents[2]
VECTOR_ADD = json.loads((ROOT / "kernels" / "vector_add.json").read_text())
TTIR = ROOT / "test" / "fixtures" / "triton" / "vector_add.ttir"
BINARY = ROOT / "test" / "fixtures" / "triton_ptx" / "vector_add.ptx"


def tt_run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = run("tt-run", main, [str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", sorted((ROOT / "kernels").glob("*.json")), ids=lambda p: p.stem)
def test_kernel_specs_validate(path):
    spec = specs.load(path)
    assert spec.args and spec.checks and spec.signature
    assert len(specs.parameters(spec, None)) <= len(spec.args)


def test_kernel_source_is_the_spec_name_or_its_source_key():
    kernels = ROOT / "kernels"
    assert specs.kernel_source(kernels / "vector_add.json") == kernels / "vector_add.py"
    assert specs.kernel_source(kernels / "layer_norm_bwd_dwdb.json") == kernels / "layer_norm_bwd.py"


def edited(**changes):
    """vector_add's spec with changes: key -> value, or a function of the spec for deeper edits."""
    spec = copy.deepcopy(VECTOR_ADD)
    for k, v in changes.items():
        if callable(v):
            v(spec)
        elif v is None:
            del spec[k]
        else:
            spec[k] = v
    return spec


def arg(which, **fields):
    def edit(spec):
        a = next(a for a in spec["args"] if a["name"] == which)
        for k, v in fields.items():
            if v is None:
                a.pop(k, None)
            else:
                a[k] = v
    return edit


def drop_arg(name):
    def edit(spec):
        spec["args"] = [a for a in spec["args"] if a["name"] != name]
    return edit


# case -> (spec (dict, or raw text), expected error message after 'SPEC: error: ')
CASES = {
    "invalid_json": ('{"grid": [1], "args": [}', ":1:24: error: invalid JSON: Expecting value"),
    "not_an_object": ("[1, 2]", ": error: [1, 2] is not of type 'object'"),
    "missing_grid": (edited(grid=None), ": error: 'grid' is a required property"),
    "unknown_key": (edited(gird=[1]), ": error: unknown key ('gird' was unexpected)"),
    "missing_arg": (edited(args=drop_arg("n")),
                    ": error: args: the signature lists 4 arguments but 'args' has 3; entry 4 ('i32') has no argument"),
    "missing_arg_without_signature": (edited(signature=None, args=drop_arg("n")),
                                      ": error: args: the kernel takes 4 parameters but the spec gives 3 arguments"),
    "wrong_dtype": (edited(args=arg("x", type="*fp16")), ": error: args[0].type: 'x' is '*fp16' but the signature says '*fp32'"),
    "wrong_dtype_vs_kernel": (edited(signature=None, args=arg("y", type="*fp16")),
                              ": error: args[1].type: 'y' is '*fp16' but kernel parameter 1 (%y_ptr) is !tt.ptr<f32>"),
    "scalar_for_pointer": (edited(signature=None, args=arg("n", type="i64")),
                           ": error: args[3].type: 'n' is 'i64' but kernel parameter 3 (%n_elements) is i32"),
    "unknown_type": (edited(args=arg("x", type="*fp33")), ": error: args[0].type: unknown type '*fp33' (known: "),
    "bad_shape": (edited(args=arg("x", shape=[-5])), ": error: args[0].shape[0]: -5 is less than the minimum of 0"),
    "missing_shape": (edited(args=arg("x", shape=None)), ": error: args[0]: pointer argument 'x' needs a 'shape' (or an init file)"),
    "scalar_without_value": (edited(args=arg("n", value=None)), ": error: args[3]: 'value' is a required property"),
    "value_out_of_range": (edited(args=arg("n", value=2**40)), ": error: args[3].value: 1099511627776 does not fit in i32"),
    "bad_init": (edited(args=arg("x", init="gaussian")), ": error: args[0].init: \"gaussian\" is not valid: Initial contents"),
    "randn_for_ints": (edited(signature=None, args=arg("x", type="*i32")), ": error: args[0].init: init 'randn' needs a float type"),
    "bad_randint": (edited(args=arg("x", init={"randint": [5, 1]})), ": error: args[0].init.randint: randint needs low < high"),
    "missing_file": (edited(args=arg("x", init={"file": "nowhere.npy"})), ": error: args[0].init.file: cannot read '"),
    "duplicate_name": (edited(args=arg("y", name="x")), ": error: args[1].name: argument name 'x' is used more than once"),
    "grid_syntax": (edited(grid=["cdiv(n, "]), ": error: grid[0]: invalid expression 'cdiv(n, ': "),
    "grid_unknown_name": (edited(grid=["cdiv(m, 1024)"]), ": error: grid[0]: unknown name 'm' in 'cdiv(m, 1024)'"),
    "grid_not_integer": (edited(grid=["n / 1024"]), ": error: grid[0]: 'n / 1024' is 48.828125, not an integer"),
    "grid_zero": (edited(grid=["n - 50000"]), ": error: grid[0]: 'n - 50000' is 0; grid dimensions must be at least 1"),
    "grid_unsafe": (edited(grid=["__import__('os').getpid()"]), ": error: grid[0]: name '__import__' is not allowed"),
    "grid_attribute_escape": (edited(grid=["(1).__class__"]), ": error: grid[0]: private attribute '__class__' is not allowed"),
    "check_unknown_output": (edited(check={"result": "x + y"}), ": error: check.result: 'result' is not an argument; checks name pointer arguments"),
    "check_bad_expression": (edited(check={"out": "x +* y"}), ": error: check.out: invalid expression 'x +* y': "),
    "check_wrong_shape": (edited(check={"out": "x[:10]"}), ": error: check.out: the expression gives shape [10] but 'out' has shape [50000]"),
    "check_disallowed": (edited(check={"out": "np.save('f', x)"}), ": error: check.out: 'np.save' is not available in spec expressions"),
    "specialized_not_one": (edited(signature="*fp32:16,*fp32:16,*fp32:16,i32:1,1024"),
                            ": error: args[3].value: the signature specializes 'n' to 1 (':1') but its value is 50000"),
    "kernel_not_found": (edited(kernel="mul_kernel"), ": error: kernel: no kernel 'mul_kernel' in the module (functions: add_kernel)"),
    "launch_pdl_not_bool": (edited(launch_pdl=1), ": error: launch_pdl: 1 is not of type 'boolean'"),
    "num_warps_mismatch": (edited(num_warps=8), None),  # only with the TTGIR, below
    # buffers reached through address tables (kernels/grouped_matmul.json)
    "addresses_of_non_buffer": (edited(buffers=[{"name": "b0", "type": "*fp16", "shape": [4]}],
                                       args=arg("x", type="*i64", shape=[1], init={"addresses": ["y"]})),
                                ": error: args[0].init.addresses: 'y' is not one of the spec's buffers"),
    "addresses_in_floats": (edited(buffers=[{"name": "b0", "type": "*fp16", "shape": [4]}],
                                   args=arg("x", shape=[1], init={"addresses": ["b0"]})),
                            ": error: args[0].init: 'x' holds 1 addresses: it must be *i64 or *u64 of shape [1]"),
    "buffer_scalar": (edited(buffers=[{"name": "b0", "type": "i32", "shape": [4]}]),
                      ": error: buffers[0].type: 'i32' does not match '^\\\\*'"),
    "buffer_name_clash": (edited(buffers=[{"name": "x", "type": "*fp16", "shape": [4]}]),
                          ": error: buffers[0].name: argument name 'x' is used more than once"),
}


@pytest.mark.parametrize("case", sorted(c for c in CASES if c != "num_warps_mismatch"))
def test_wrong_spec_gives_one_error_line(case, tmp_path):
    spec, message = CASES[case]
    path = tmp_path / "spec.json"
    path.write_text(spec if isinstance(spec, str) else json.dumps(spec))
    rc, out, err = tt_run(TTIR, "--spec", path, "--interpret", "--check")
    assert rc == 1
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"{path}{message}"), err


def test_num_warps_must_match_the_ttgir(tmp_path):
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(edited(num_warps=8)))
    rc, out, err = tt_run(TTIR.with_suffix(".ttgir"), "--spec", path, "--interpret")
    assert rc == 1 and err == f"{path}: error: num_warps: num_warps is 8 but the module was compiled for 4\n"
    rc, out, err = tt_run(TTIR, "--spec", path, "--interpret")  # TTIR carries no warp count
    assert rc == 0, err


def test_init_file_dtype_and_shape(tmp_path):
    np.save(tmp_path / "x.npy", np.zeros(50000, np.float64))
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(edited(args=arg("x", init={"file": "x.npy"}))))
    rc, out, err = tt_run(TTIR, "--spec", path, "--interpret")
    assert rc == 1 and err == (f"{path}: error: args[0].init.file: '{tmp_path / 'x.npy'}' holds float64, "
                               "but 'x' (*fp32) needs float32\n")
    np.save(tmp_path / "x.npy", np.zeros(40000, np.float32))
    rc, out, err = tt_run(TTIR, "--spec", path, "--interpret")
    assert rc == 1 and err == (f"{path}: error: args[0].init.file: '{tmp_path / 'x.npy'}' has shape [40000], "
                               "but 'x' has shape [50000]\n")
    path.write_text(json.dumps(edited(args=arg("x", init={"file": "x.npy"}, shape=None))))  # the file gives the shape
    rc, out, err = tt_run(TTIR, "--spec", path, "--interpret")
    assert rc == 1 and "out-of-bounds load" in err  # 40000 elements, n = 50000


@pytest.mark.parametrize("argv, message", [
    (["--interpret"], "tt-run: error: the following arguments are required: KERNEL, --spec"),
    ([TTIR], "tt-run: error: the following arguments are required: --spec"),
    ([TTIR, "--spec", ROOT / "kernels" / "vector_add.json", "--bench", "--rep", "0"],
     "tt-run: error: argument --rep: 0 is not in the range x>=1"),
    ([TTIR, "--spec", ROOT / "kernels" / "vector_add.json", "--bench", "--warmup", "x"],
     "tt-run: error: argument --warmup: invalid int value: 'x'"),
    ([TTIR, "--spec", ROOT / "kernels" / "vector_add.json"], f"tt-run: error: '{TTIR}' is IR: pass --interpret to run it on the CPU"),
    ([ROOT / "kernels" / "vector_add.py", "--spec", ROOT / "kernels" / "vector_add.json"],
     f"tt-run: error: '{ROOT / 'kernels' / 'vector_add.py'}' is neither IR (.ttir, .ttgir, .mlir) nor a GPU binary (.cubin, .ptx)"),
    ([TTIR, "--spec", ROOT / "kernels" / "vector_add.json", "--interpret", "--bench"],
     "tt-run: error: --bench times GPU launches; it does not go with --interpret"),
    ([TTIR, "--spec", ROOT / "kernels" / "vector_add.json", "--interpret", "--rep", "5"],
     "tt-run: error: --warmup and --rep go with --bench"),
    (["missing.ttir", "--spec", ROOT / "kernels" / "vector_add.json", "--interpret"],
     "tt-run: error: could not open input file 'missing.ttir': No such file or directory"),
    ([TTIR, "--spec", "missing.json", "--interpret"], "missing.json: error: cannot read the spec: No such file or directory"),
    ([TTIR, "--spec", ROOT / "kernels" / "vector_add.json", "--interpret", "--against", TTIR],
     "tt-run: error: --against runs a second GPU binary; it does not go with --interpret"),
    ([BINARY, "--spec", ROOT / "kernels" / "vector_add.json", "--against", "missing.cubin"],
     "tt-run: error: could not open input file 'missing.cubin': No such file or directory"),
    ([BINARY, "--spec", ROOT / "kernels" / "vector_add.json", "--against", TTIR],
     f"tt-run: error: --against takes a GPU binary (.cubin, .ptx), not '{TTIR}'"),
])
def test_command_line_errors(argv, message):
    rc, out, err = tt_run(*argv)
    assert rc == 1 and err == message + "\n", err


def test_help():
    rc, out, err = tt_run("--help")
    assert rc == 0 and "--interpret" in out and "--spec" in out


def test_installed_command(tmp_path):
    """The `tt-run` entry point itself: exit code and one error line without a traceback."""
    import subprocess
    import shutil

    exe = shutil.which("tt-run") or pytest.skip("tt-run is not installed (pip install -e .)")
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(edited(grid=["cdiv(n, 0)"])))
    proc = subprocess.run([exe, str(TTIR), "--spec", str(path), "--interpret"], capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k != "TTC_DEBUG"})
    assert proc.returncode == 1
    assert proc.stderr == f"{path}: error: grid[0]: 'cdiv(n, 0)' failed: ZeroDivisionError: integer division or modulo by zero\n"


def test_descriptor_buffers_row_major_and_padded(tmp_path):
    """A descriptor argument's buffer: row-major by default; with strides, the tensor's rows at their stride,
    zeros between them, and read back as the tensor."""
    rows = {"name": "x", "type": "tensordesc<fp16[16, 16]>", "shape": [3, 24], "init": "arange"}
    padded = dict(rows, strides=[32, 1])
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"grid": [1], "args": [rows]}))
    a = specs.load(path).args[0]
    assert a.is_desc and a.is_ptr and a.strides == (24, 1) and not a.padded and a.n_params == 5
    path.write_text(json.dumps({"grid": [1], "args": [padded]}))
    spec = specs.load(path)
    a = spec.args[0]
    host = specs.initial_values(spec)["x"]
    dev = specs.to_device(a, host)
    assert a.padded and a.strides == (32, 1) and dev.shape == (2 * 32 + 24,)
    assert (dev[:24] == host[0]).all() and (dev[24:32] == 0).all() and (dev[32:56] == host[1]).all()
    raw = np.zeros(dev.size + 7, dtype=np.float16)  # the device buffer may be longer
    raw[: dev.size] = dev
    assert (specs.from_device(a, raw.view(np.uint8)) == host).all()
    a.decomposed = True
    assert a.n_params == 10 and len(a.parameter_values(np.int64(0))) == 10


def test_bit_differences_of_two_runs():
    """--against says whether the other binary's outputs are the same bit for bit: a sum rounded in another order
    differs in the last bit, and -0.0 is not 0.0; NaNs with the same bits are the same."""
    from ttc.runtime.check import bit_differences, same_bits_text

    a = np.array([1.0, np.nan, 0.0, 2.0], np.float32)
    b = a.copy()
    assert bit_differences(a, b) == (0, 0.0)
    assert same_bits_text("y", a, b, "k.cubin") == "y: the same bits as k.cubin's"
    b[2], b[3] = -0.0, np.nextafter(np.float32(2), np.float32(3))
    n, largest = bit_differences(a, b)
    assert n == 2 and largest == pytest.approx(2.0 ** -22)
    assert same_bits_text("y", a, b, "k.cubin") == "y: 2 of 4 elements differ from k.cubin's (largest difference 2.38e-07)"
    assert bit_differences(np.array([1, 2], np.int8), np.array([1, -2], np.int8)) == (1, 4.0)
