#!/usr/bin/env python3
"""Runs the ONNX backend node tests through relaxc and counts what passes.

  node_tests.py --relaxc RELAXC --work DIR [-j N] [--filter REGEX] [--device D]
                [--min-pass FILE] [--timeout S] [--verbose]

The official node tests are generated with python3-onnx's own generators
(onnx.backend.test.cmd_tools generate-data) into DIR/data, once per onnx version. Each
test whose graph inputs and outputs are all tensors is run with `relaxc run` on each of
its data sets (the input_*.pb converted to .npy): from model.onnx directly when it has
one data set, else from the executable `relaxc build model.onnx --target D` wrote. Every
output is compared with output_*.pb as ONNX's backend runner compares them: the same
dtype and shape, values within rtol 1e-3 and
atol 1e-7 (NaN equal to NaN). NumPy has no bfloat16: a bfloat16 graph input or output
travels as relaxc's .npy spelling of it, the structured dtype [('bfloat16', '<u2')] of
its bits, and is compared bit by bit, within one unit in the last place (onnx 1.12's data
rounds to bfloat16 by truncation, relaxc to nearest even as CUDA and PyTorch do). A test is

  PASS         every output of every data set matches;
  UNSUPPORTED  relaxc refused the model with an "unsupported" error (an operator,
               attribute value or dtype the importer cannot express);
  FAIL         a wrong result, a crash, a timeout or any other error;
  SKIPPED      a graph input or output is a sequence, map or optional (not counted).

Prints one line per test, a summary per operator family and per operator (the operator
a test exercises: the one of its non-expanded twin, else its only operator), and the
totals. With --min-pass FILE (one number), exits 1 when fewer tests pass than FILE
records, and says to raise the number when more pass.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

# The generators of onnx 1.12 use NumPy aliases that NumPy 1.24 removed (np.float,
# np.bool, ...); they are the builtins they always stood for.
for _alias, _builtin in (("float", float), ("int", int), ("bool", bool), ("object", object),
                         ("str", str), ("complex", complex)):
    if _alias not in np.__dict__:
        setattr(np, _alias, _builtin)

import onnx  # noqa: E402 (after the aliases the generators need)
from onnx import numpy_helper  # noqa: E402

RTOL = 1e-3
ATOL = 1e-7
# relaxc's .npy spelling of bfloat16 (runtime/npy.h): each element's bits in one field.
BFLOAT16_NPY = np.dtype([("bfloat16", "<u2")])

# The ONNX operators of each family of frontend/onnx/ops_<family>.cc; others are "other".
FAMILIES = {
    "core": "Constant Identity Dropout",
    "elementwise": """Add Sub Mul Div Pow Mod BitShift Sum Mean Max Min Equal Less Greater
        LessOrEqual GreaterOrEqual And Or Xor Not Where Neg Abs Sign Reciprocal Floor Ceil
        Round Sqrt Exp Log Tanh Sin Cos Tan Asin Acos Atan Sinh Cosh Asinh Acosh Atanh Erf
        IsNaN IsInf Relu Sigmoid LeakyRelu PRelu Elu Selu Celu HardSigmoid HardSwish
        Softplus Softsign ThresholdedRelu Shrink Clip Cast CastLike QuantizeLinear
        DequantizeLinear DynamicQuantizeLinear""",
    "nn": """Gemm MatMul MatMulInteger QLinearMatMul Einsum Conv ConvInteger QLinearConv
        ConvTranspose MaxPool AveragePool GlobalAveragePool GlobalMaxPool LpPool GlobalLpPool
        BatchNormalization LayerNormalization GroupNormalization InstanceNormalization
        MeanVarianceNormalization Softmax LogSoftmax Hardmax LRN""",
    "reduce": """ReduceSum ReduceMean ReduceMax ReduceMin ReduceProd ReduceL1 ReduceL2
        ReduceLogSum ReduceLogSumExp ReduceSumSquare ArgMax ArgMin TopK CumSum""",
    "shape": """Shape Size Reshape Flatten Squeeze Unsqueeze Transpose Concat Split Slice
        Expand Tile Pad ConstantOfShape Range EyeLike""",
    "index": """Gather GatherElements GatherND Scatter ScatterElements ScatterND ReverseSequence
        OneHot Resize DepthToSpace SpaceToDepth Trilu""",
    "data_dependent": "NonZero Compress Unique",
    "loss": "NegativeLogLikelihoodLoss SoftmaxCrossEntropyLoss",
    "rnn": "RNN GRU LSTM",
    "signal": "HannWindow HammingWindow BlackmanWindow",
}
FAMILY_OF = {op: family for family, ops in FAMILIES.items() for op in ops.split()}
STATUSES = ("PASS", "FAIL", "UNSUPPORTED", "SKIPPED")


def generate(data_dir):
    """The node tests of the installed onnx under data_dir/node (generated once)."""
    stamp = os.path.join(data_dir, "onnx-version")
    node_dir = os.path.join(data_dir, "node")
    if os.path.exists(stamp) and open(stamp).read() == onnx.__version__:
        return node_dir
    shutil.rmtree(data_dir, ignore_errors=True)
    from onnx.backend.test import cmd_tools
    cmd_tools.generate_data(argparse.Namespace(output=data_dir, op_type=None))
    with open(stamp, "w") as f:
        f.write(onnx.__version__)
    return node_dir


def is_tensor(value_info):
    return value_info.type.HasField("tensor_type")


def main_ops(model):
    return sorted({n.op_type for n in model.graph.node if n.op_type != "Constant"}) or ["Constant"]


def tested_operator(name, model, models):
    """The operator a test exercises: its non-expanded twin's, or its own only one."""
    twin = models.get(name[:-len("_expanded")]) if name.endswith("_expanded") else None
    for candidate in (twin, model):
        if candidate is not None and len(main_ops(candidate)) == 1:
            return main_ops(candidate)[0]
    return "+".join(main_ops(model))


def load_tensor(path):
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return numpy_helper.to_array(tensor)


def bfloat16_bits(array):
    """The uint16 bits of bfloat16 data as numpy_helper gives it: float32 values (onnx
    1.12 for a BFLOAT16 tensor, exact), or the bits (onnx 1.12's test data stores bfloat16
    as UINT16)."""
    if array.dtype == np.float32:
        return (array.view(np.uint32) >> 16).astype(np.uint16)
    return array.view(np.uint16)


def graph_dtypes(values, initializers=()):
    """The ONNX elem_type of each tensor in `values` that is not an initializer."""
    return [v.type.tensor_type.elem_type for v in values if v.name not in initializers]


def first_lines(text, count=3):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[:count]) if lines else "(no output)"


def compare(actual, expected, is_bfloat16=False):
    """None if actual matches expected as ONNX's runner compares, else what differs.
    bfloat16 outputs are their bits (uint16); they match within one unit in the last
    place, with the same sign, or as equal values (NaN equal to NaN)."""
    if actual.dtype != expected.dtype:
        return f"dtype {actual.dtype}, expected {expected.dtype}"
    if actual.shape != expected.shape:
        return f"shape {actual.shape}, expected {expected.shape}"
    if is_bfloat16:
        values = [(bits.astype(np.uint32) << 16).view(np.float32) for bits in (actual, expected)]
        ulps = np.abs(actual.astype(np.int32) - expected.astype(np.int32))
        same_sign = (actual >> 15) == (expected >> 15)
        bad = ~(((ulps <= 1) & same_sign) | (values[0] == values[1]) |
                (np.isnan(values[0]) & np.isnan(values[1])))
    elif expected.dtype.kind in "biu":
        bad = actual != expected
    else:
        bad = ~np.isclose(actual, expected, rtol=RTOL, atol=ATOL, equal_nan=True)
    if not bad.any():
        return None
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return (f"{int(bad.sum())} of {bad.size} elements differ; at {index}: "
            f"{actual[index]!r}, expected {expected[index]!r}")


def run_test(test_dir, work_dir, args):
    """(status, message) of one test."""
    shutil.rmtree(work_dir, ignore_errors=True)
    os.makedirs(work_dir)
    executable = os.path.join(work_dir, "model.rxe")

    def relaxc(command):
        try:
            return subprocess.run([args.relaxc] + command, capture_output=True, text=True,
                                  timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return None

    def refused(command, result):
        """The status of a relaxc command that exited non-zero: UNSUPPORTED for the
        importer's refusal, else FAIL."""
        output = result.stdout + result.stderr
        status = "UNSUPPORTED" if ": unsupported:" in output else "FAIL"
        return status, f"relaxc {command} exited {result.returncode}: {first_lines(output)}"

    model = os.path.join(test_dir, "model.onnx")
    data_sets = sorted(d for d in os.listdir(test_dir) if d.startswith("test_data_set_"))
    # One data set (almost every test): `relaxc run model.onnx` compiles in memory, one
    # process instead of a build and a run (each opens the device). Several: built once.
    program = model
    if len(data_sets) != 1:
        build = relaxc(["build", model, "--target", args.device, "-o", executable])
        if build is None:
            return "FAIL", f"relaxc build timed out after {args.timeout} s"
        if build.returncode != 0:
            return refused("build", build)
        program = executable
    graph = onnx.load(model).graph
    input_types = graph_dtypes(graph.input, {i.name for i in graph.initializer})
    output_types = graph_dtypes(graph.output)
    for data_set in data_sets:
        data_dir = os.path.join(test_dir, data_set)
        command = ["run", program, "--device", args.device]
        count = len([f for f in os.listdir(data_dir) if f.startswith("input_")])
        for k in range(count):
            path = os.path.join(work_dir, f"{data_set}_input_{k}.npy")
            tensor = load_tensor(os.path.join(data_dir, f"input_{k}.pb"))
            if input_types[k] == onnx.TensorProto.BFLOAT16:
                tensor = bfloat16_bits(tensor).view(BFLOAT16_NPY)
            np.save(path, tensor)
            command += ["--input", path]
        out_dir = os.path.join(work_dir, data_set)
        run = relaxc(command + ["--output-dir", out_dir])
        if run is None:
            return "FAIL", f"{data_set}: relaxc run timed out after {args.timeout} s"
        if run.returncode != 0:
            status, message = refused("run", run)
            return status, f"{data_set}: {message}"
        outputs = sorted(f for f in os.listdir(data_dir) if f.startswith("output_"))
        for k in range(len(outputs)):
            expected = load_tensor(os.path.join(data_dir, f"output_{k}.pb"))
            path = os.path.join(out_dir, f"main_{k}.npy")
            if not os.path.exists(path):
                return "FAIL", f"{data_set}: output {k} missing ({path})"
            actual = np.load(path)
            is_bfloat16 = output_types[k] == onnx.TensorProto.BFLOAT16
            if is_bfloat16:
                if actual.dtype != BFLOAT16_NPY:
                    return "FAIL", f"{data_set}: output {k}: dtype {actual.dtype}, expected bfloat16"
                actual, expected = actual["bfloat16"], bfloat16_bits(expected)
            difference = compare(actual, expected, is_bfloat16)
            if difference:
                return "FAIL", f"{data_set}: output {k}: {difference}"
    shutil.rmtree(work_dir, ignore_errors=True)
    return "PASS", ""


def summarize(title, groups):
    print(f"\n{title}:")
    width = max(len(key) for key in groups)
    print(f"  {'':{width}}  {'pass':>5} {'fail':>5} {'unsup':>5} {'total':>5}  rate")
    for key in sorted(groups):
        counts = groups[key]
        total = counts["PASS"] + counts["FAIL"] + counts["UNSUPPORTED"]
        if total == 0:
            continue
        print(f"  {key:{width}}  {counts['PASS']:5d} {counts['FAIL']:5d} "
              f"{counts['UNSUPPORTED']:5d} {total:5d}  {100.0 * counts['PASS'] / total:5.1f}%")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--relaxc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--filter", help="run the tests whose name matches this regex")
    parser.add_argument("--device", choices=["vulkan", "cuda"], default="vulkan")
    parser.add_argument("--min-pass", help="a file with the least number of passing tests")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds each relaxc command may take")
    parser.add_argument("--verbose", action="store_true", help="also print passing tests")
    args = parser.parse_args()
    if args.min_pass and args.filter:
        parser.error("--min-pass counts every test: it cannot go with --filter")
    args.relaxc = os.path.abspath(args.relaxc)

    start = time.monotonic()
    node_dir = generate(os.path.join(args.work, "data"))
    generated = time.monotonic()
    names = sorted(os.listdir(node_dir))
    if args.filter:
        names = [name for name in names if re.search(args.filter, name)]
    if not names:
        sys.exit(f"node_tests: error: no test matches --filter '{args.filter}'")
    models = {name: onnx.load(os.path.join(node_dir, name, "model.onnx"))
              for name in sorted(os.listdir(node_dir))}

    results = {}
    runnable = []
    for name in names:
        graph = models[name].graph
        if all(is_tensor(v) for v in list(graph.input) + list(graph.output)):
            runnable.append(name)
        else:
            results[name] = ("SKIPPED", "a graph input or output is not a tensor")
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_test, os.path.join(node_dir, name),
                               os.path.join(args.work, "run", name), args): name
                   for name in runnable}
        for future in concurrent.futures.as_completed(futures):
            results[futures[future]] = future.result()

    by_family = collections.defaultdict(collections.Counter)
    by_operator = collections.defaultdict(collections.Counter)
    totals = collections.Counter()
    for name in names:
        status, message = results[name]
        op = tested_operator(name, models[name], models)
        family = FAMILY_OF.get(op, "other")
        by_family[family][status] += 1
        by_operator[f"{op} ({family})"][status] += 1
        totals[status] += 1
        if status != "PASS" or args.verbose:
            print(f"{status:<11} {name} ({op})" + (f": {message}" if message else ""))

    summarize("By family", by_family)
    summarize("By operator", by_operator)
    counted = totals["PASS"] + totals["FAIL"] + totals["UNSUPPORTED"]
    rate = 100.0 * totals["PASS"] / counted if counted else 0.0
    print(f"\nnode tests: {totals['PASS']} passed, {totals['FAIL']} failed, "
          f"{totals['UNSUPPORTED']} unsupported of {counted} with tensor inputs and outputs "
          f"({rate:.1f}% pass); {totals['SKIPPED']} skipped (sequences, maps, optionals); "
          f"generated in {generated - start:.0f} s, ran in {time.monotonic() - generated:.0f} s "
          f"with -j {args.jobs}")

    if args.min_pass:
        recorded = int(open(args.min_pass).read().split()[0])
        if totals["PASS"] < recorded:
            print(f"node_tests: error: {totals['PASS']} tests passed, fewer than the "
                  f"{recorded} recorded in {args.min_pass}")
            return 1
        if totals["PASS"] > recorded:
            print(f"node_tests: {totals['PASS']} tests passed, more than the {recorded} "
                  f"recorded: raise the number in {args.min_pass}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
