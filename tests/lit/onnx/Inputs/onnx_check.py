#!/usr/bin/env python3
"""Runs ONNX test scripts: small models built with onnx.helper, run through relaxc on
lavapipe (or a GPU), compared with NumPy.

  onnx_check.py SCRIPT --relaxc RELAXC --work DIR [--device vulkan|cuda]

SCRIPT (a lit test of tests/lit/onnx) is run as Python with this module importable as
`onnx_check`; it builds models and calls the checks below. Each check prints one line,
"ok: NAME" or "FAIL: NAME: why" (and for expect_error the message relaxc printed, for
FileCheck); the run exits 1 when any check failed. --device defaults to the environment's
RELAXC_OP_CHECK_DEVICE, else vulkan (lavapipe where there is no GPU).

  import numpy as np
  from onnx_check import check_node, check_model, expect_error, make_model, tensor_info

  check_node("Relu", {"x": np.float32([[-1, 2]])}, lambda x: np.maximum(x, 0))
  check_node("Gemm", {"a": a, "b": b}, lambda a, b: a @ b.T, attrs={"transB": 1},
             constants={"b"})            # b becomes an initializer
  model = make_model(nodes, [tensor_info("x", np.float32, ["batch", 3])],
                     [tensor_info("y", np.float32, None)])
  check_model("name", model, [{"x": x2}, {"x": x5}], lambda x: x + 1)
  expect_error("name", model, [x], "unsupported: ...")
"""

import os
import subprocess
import sys

try:
    import numpy as np
    import onnx
    from onnx import helper, mapping, numpy_helper
except ImportError as e:
    sys.exit(f"onnx_check: error: {e} (Debian's python3-numpy and python3-onnx; "
             "scripts/setup.sh installs them)")

RELAXC = None
WORK = None
DEVICE = "vulkan"
_failures = []
_counter = [0]


def tensor_info(name, dtype, shape):
    """A graph input or output: `shape` a list of ints and dim_param names (None: an
    unnamed dynamic dim), or None for no shape (not for a graph output: the checker of
    onnx 1.12 wants its rank)."""
    elem = mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dtype)]
    return helper.make_tensor_value_info(name, elem, shape)


def make_model(nodes, inputs, outputs, initializers=None, opset=13, ir_version=8):
    """A model of `nodes` (NodeProtos); `initializers` maps names to arrays."""
    inits = [numpy_helper.from_array(np.asarray(v), name=k)
             for k, v in (initializers or {}).items()]
    graph = helper.make_graph(nodes, "test", inputs, outputs, initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                             ir_version=ir_version)


def _path(name, suffix):
    _counter[0] += 1
    safe = "".join(c if c.isalnum() else "_" for c in name)
    return os.path.join(WORK, f"{_counter[0]:03d}_{safe}{suffix}")


def save(name, model):
    """Writes `model` (a ModelProto, or bytes for a deliberately broken file)."""
    path = _path(name, ".onnx")
    with open(path, "wb") as f:
        f.write(model if isinstance(model, (bytes, bytearray)) else model.SerializeToString())
    return path


def write(model, filename):
    """Writes `model` to WORK/filename, for the test's later RUN lines (%t/filename)."""
    path = os.path.join(WORK, filename)
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    return path


def _graph_inputs(model):
    inits = {i.name for i in model.graph.initializer}
    return [i.name for i in model.graph.input if i.name not in inits]


def run_relaxc(name, model_path, arrays, out_dir=None):
    """`relaxc run MODEL --input ...` with `arrays` (a list, in order); the result."""
    command = [RELAXC, "run", model_path, "--device", DEVICE]
    for k, array in enumerate(arrays):
        path = _path(f"{name}_in{k}", ".npy")
        np.save(path, array)
        command += ["--input", path]
    if out_dir:
        command += ["--output-dir", out_dir]
    return subprocess.run(command, capture_output=True, text=True)


def _fail(name, why):
    _failures.append(name)
    print(f"FAIL: {name}: {why}")


def step(name, command):
    """Runs `command`; prints "ok: NAME" and returns its result, or reports a failure
    (with its output) and returns None."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        _fail(name, f"exit {result.returncode}:\n{result.stdout}{result.stderr}")
        return None
    print(f"ok: {name}")
    return result


def import_with_symbolic_shapes(model_path):
    """`relaxc import` of the model, printed; checks that every shape in it is known at
    import time (symbolic at most): a data-dependent one prints as R.Tensor(ndim=...)
    or R.Tensor(dtype=...)."""
    imported = step("import", [RELAXC, "import", model_path, "-o", "-"])
    if imported is None:
        return
    print(imported.stdout)
    if "ndim=" in imported.stdout or "R.Tensor(dtype" in imported.stdout:
        _fail("every shape symbolic", "the module has a shape not known at import")
    else:
        print("ok: every shape symbolic")


def _compare(name, k, actual, expected, rtol, atol):
    expected = np.asarray(expected)
    if actual.shape != expected.shape:
        return f"output {k} has shape {actual.shape}, expected {expected.shape}"
    if actual.dtype != expected.dtype:
        return f"output {k} is {actual.dtype}, expected {expected.dtype}"
    if np.issubdtype(actual.dtype, np.floating):
        close = np.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        close = actual == expected
    if not np.all(close):
        bad = np.argwhere(~np.asarray(close))
        first = tuple(bad[0]) if bad.size else ()
        return (f"output {k} differs at {len(bad)} of {actual.size} element(s); first at "
                f"{first}: {actual[first]} vs {expected[first]}")
    return None


def check_model(name, model, runs, expected, rtol=1e-5, atol=1e-5):
    """Runs `model` once per entry of `runs` (a dict of input arrays by name, or a list in
    the graph's input order) and compares its outputs with `expected`: a function of the
    inputs (by name) returning an array or a tuple of arrays, or a list of those per run.
    The printed output names must be the graph's."""
    onnx.checker.check_model(model)
    model_path = save(name, model)
    input_names = _graph_inputs(model)
    output_names = [o.name for o in model.graph.output]
    if isinstance(runs, dict):
        runs = [runs]
    for index, run in enumerate(runs):
        arrays = [run[n] for n in input_names] if isinstance(run, dict) else list(run)
        values = dict(zip(input_names, arrays))
        out_dir = _path(f"{name}_out{index}", "")
        result = run_relaxc(name, model_path, arrays, out_dir)
        where = f"run {index}" if len(runs) > 1 else "run"
        if result.returncode != 0:
            return _fail(name, f"{where}: relaxc exited {result.returncode}:\n"
                         f"{result.stdout}{result.stderr}")
        reference = expected(**values) if callable(expected) else expected[index]
        references = reference if isinstance(reference, tuple) else (reference,)
        if len(references) != len(output_names):
            return _fail(name, f"the reference has {len(references)} outputs, the graph "
                         f"{len(output_names)}")
        for k, (reference_k, output_name) in enumerate(zip(references, output_names)):
            if f"main_{k} '{output_name}':" not in result.stdout:
                return _fail(name, f"{where}: output {k} not printed as main_{k} "
                             f"'{output_name}':\n{result.stdout}")
            path = os.path.join(out_dir, f"main_{k}.npy")
            if not os.path.exists(path):
                return _fail(name, f"{where}: output {k} missing ({path})")
            why = _compare(name, k, np.load(path), reference_k, rtol, atol)
            if why:
                return _fail(name, f"{where}: {why}")
    print(f"ok: {name}")


def check_node(op_type, inputs, expected, attrs=None, outputs=("y",), opset=13,
               constants=(), name=None, rtol=1e-5, atol=1e-5):
    """One node of `op_type` on `inputs` (a dict of arrays by name, in the node's input
    order; a name in `constants` becomes an initializer, an empty name an omitted
    optional input), with `attrs`, compared with `expected` (see check_model). The graph's
    outputs declare the reference's dtypes and ranks, no dims."""
    name = name or op_type
    runtime_inputs = {k: v for k, v in inputs.items() if k and k not in constants}
    node = helper.make_node(op_type, list(inputs), list(outputs), **(attrs or {}))
    graph_inputs, initializers = [], {}
    for key, value in inputs.items():
        if not key:
            continue
        if key in constants:
            initializers[key] = value
        else:
            graph_inputs.append(tensor_info(key, np.asarray(value).dtype, list(np.shape(value))))
    named = {k: v for k, v in inputs.items() if k}
    reference = expected(**named) if callable(expected) else expected[0]
    references = reference if isinstance(reference, tuple) else (reference,)
    graph_outputs = [tensor_info(o, np.asarray(r).dtype, [None] * np.ndim(r))
                     for o, r in zip(outputs, references)]
    model = make_model([node], graph_inputs, graph_outputs, initializers, opset)
    check_model(name, model, [runtime_inputs], [reference], rtol, atol)


def expect_error(name, model, arrays, message, command="run"):
    """relaxc `command` (run, build or import) on `model` (a ModelProto, bytes, or a path)
    must exit 1 with `message` in its error; the error is printed ("error: ...") so the
    test can check it whole with FileCheck."""
    path = model if isinstance(model, str) else save(name, model)
    if command == "run":
        result = run_relaxc(name, path, arrays)
    else:
        extra = ["--target", "vulkan -profile=desktop", "-o", _path(name, ".rxe")] \
            if command == "build" else ["-o", _path(name, ".py")]
        result = subprocess.run([RELAXC, command, path] + extra, capture_output=True, text=True)
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    if result.returncode != 1 or message not in result.stderr:
        return _fail(name, f"expected exit status 1 and '{message}', got "
                     f"{result.returncode}:\n{result.stdout}{result.stderr}")
    print(f"ok: {name}")
    for line in errors:
        print(line)


def main():
    import argparse
    import runpy
    parser = argparse.ArgumentParser()
    parser.add_argument("script")
    parser.add_argument("--relaxc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--device", choices=["vulkan", "cuda"],
                        default=os.environ.get("RELAXC_OP_CHECK_DEVICE", "vulkan"))
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    # The script imports this file as the module `onnx_check`: configure that module.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import onnx_check
    onnx_check.RELAXC, onnx_check.WORK, onnx_check.DEVICE = args.relaxc, args.work, args.device
    runpy.run_path(args.script, run_name="__onnx_test__")
    if onnx_check._failures:
        print(f"{len(onnx_check._failures)} check(s) failed: {', '.join(onnx_check._failures)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
