# ONNX RNN, GRU and LSTM (unrolled at import): forward, reverse and bidirectional,
# layout 1, biases, initial states, sequence_lens, LSTM peepholes, GRU
# linear_before_reset, clip, activations with alpha and beta, omitted outputs and a
# symbolic batch, run through relaxc on lavapipe against a NumPy reference written here;
# and the errors of what relaxc refuses.
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper
from onnx_check import check_model, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)


def rand(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


ACTIVATIONS = {
    "Sigmoid": lambda x, a, b: sigmoid(x),
    "Tanh": lambda x, a, b: np.tanh(x),
    "Relu": lambda x, a, b: np.maximum(x, 0),
    "LeakyRelu": lambda x, a, b: np.where(x < 0, a * x, x),
    "HardSigmoid": lambda x, a, b: np.clip(a * x + b, 0, 1),
}
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
DEFAULT_ACTIVATIONS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"],
                       "LSTM": ["Sigmoid", "Tanh", "Tanh"]}


def reference(op, x, w, r, b=None, lens=None, h0=None, c0=None, p=None, direction="forward",
              layout=0, clip=None, linear_before_reset=0, activations=None, alphas=(),
              betas=()):
    """Y, Y_h (and Y_c for LSTM) of the ONNX operator, one batch entry at a time: an entry
    runs over its first lens[n] steps only (in reverse order for a reverse direction),
    its other rows of Y zero."""
    if layout == 1:
        x = x.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    steps, batch, _ = x.shape
    directions, hidden = w.shape[0], r.shape[2]
    g = GATES[op]
    lens = np.full(batch, steps) if lens is None else lens
    names = activations or DEFAULT_ACTIVATIONS[op] * directions
    per_direction = len(names) // directions
    # Alphas and betas go, in order, to the activations that take them.
    alpha_iter, beta_iter = iter(alphas), iter(betas)
    funcs = []
    for name in names:
        a = next(alpha_iter, None) if name in ("LeakyRelu", "HardSigmoid") else None
        bt = next(beta_iter, None) if name == "HardSigmoid" else None
        funcs.append(lambda v, f=ACTIVATIONS[name], a=a, bt=bt:
                     f(np.clip(v, -clip, clip) if clip else v, a, bt))
    y = np.zeros((steps, directions, batch, hidden), np.float32)
    y_h = np.zeros((directions, batch, hidden), np.float32)
    y_c = np.zeros((directions, batch, hidden), np.float32)
    for d in range(directions):
        f = funcs[d * per_direction:(d + 1) * per_direction]
        wd, rd = w[d], r[d]
        bd = b[d] if b is not None else np.zeros(2 * g * hidden, np.float32)
        wb, rb = bd[:g * hidden], bd[g * hidden:]
        pd = p[d] if p is not None else np.zeros(3 * hidden, np.float32)
        reverse = direction == "reverse" or d == 1
        for n in range(batch):
            h = h0[d, n] if h0 is not None else np.zeros(hidden, np.float32)
            c = c0[d, n] if c0 is not None else np.zeros(hidden, np.float32)
            order = range(lens[n])
            for t in (reversed(order) if reverse else order):
                xt = x[t, n]
                if op == "RNN":
                    h = f[0](xt @ wd.T + h @ rd.T + wb + rb)
                elif op == "GRU":
                    H = hidden
                    z = f[0](xt @ wd[:H].T + h @ rd[:H].T + wb[:H] + rb[:H])
                    rr = f[0](xt @ wd[H:2 * H].T + h @ rd[H:2 * H].T + wb[H:2 * H] + rb[H:2 * H])
                    if linear_before_reset:
                        inner = rr * (h @ rd[2 * H:].T + rb[2 * H:])
                    else:
                        inner = (rr * h) @ rd[2 * H:].T + rb[2 * H:]
                    cand = f[1](xt @ wd[2 * H:].T + wb[2 * H:] + inner)
                    h = (1 - z) * cand + z * h
                else:
                    pre = xt @ wd.T + h @ rd.T + wb + rb
                    pi, po, pf = np.split(pd, 3)
                    gi, go, gf, gc = np.split(pre, 4)
                    i = f[0](gi + pi * c)
                    fg = f[0](gf + pf * c)
                    c = fg * c + i * f[1](gc)
                    o = f[0](go + po * c)
                    h = o * f[2](c)
                y[t, d, n] = h
            y_h[d, n], y_c[d, n] = h, c
    if layout == 1:
        y, y_h, y_c = y.transpose(2, 0, 1, 3), y_h.transpose(1, 0, 2), y_c.transpose(1, 0, 2)
    return (y, y_h, y_c) if op == "LSTM" else (y, y_h)


def check(name, op, arrays, outputs=None, x_shape=None, runs=None, opset=14, **attrs):
    """One `op` node on `arrays` (inputs by name in the node's order; None omits one),
    every output (or those of `outputs`, None omitting one) compared with the
    reference; `x_shape` declares X's shape (symbolic dims), `runs` more input sets."""
    order = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"]
    given = {k: v for k, v in zip(order, arrays) if v is not None}
    inputs = [k if v is not None else "" for k, v in zip(order, arrays)]
    while inputs and not inputs[-1]:
        inputs.pop()
    count = 3 if op == "LSTM" else 2
    outputs = outputs or ["Y", "Y_h", "Y_c"][:count]
    ref_attrs = {k: v for k, v in attrs.items() if k != "hidden_size"}
    ref_attrs = {{"activation_alpha": "alphas", "activation_beta": "betas"}.get(k, k): v
                 for k, v in ref_attrs.items()}
    node = helper.make_node(op, inputs, [o or "" for o in outputs], **attrs)
    graph_inputs = [tensor_info(k, v.dtype, x_shape if k == "X" and x_shape else list(v.shape))
                    for k, v in given.items()]
    ranks = [4, 3, 3]
    graph_outputs = [tensor_info(o, np.float32, [None] * ranks[k])
                     for k, o in enumerate(outputs) if o]

    def expected(X, W, R, B=None, sequence_lens=None, initial_h=None, initial_c=None, P=None):
        full = reference(op, X, W, R, B, sequence_lens, initial_h, initial_c, P, **ref_attrs)
        return tuple(full[k] for k, o in enumerate(outputs) if o)

    model = make_model([node], graph_inputs, graph_outputs, opset=opset)
    check_model(name, model, [given] + (runs or []), expected, rtol=1e-4, atol=1e-5)


X, N, I, H = 4, 3, 2, 3  # steps, batch, input size, hidden size


def weights(op, directions, bias=True):
    g = GATES[op]
    w, r = rand(directions, g * H, I), rand(directions, g * H, H)
    return [w, r, rand(directions, 2 * g * H) if bias else None]


lens = np.int32([4, 1, 3])

# RNN
check("rnn_forward_h0", "RNN", [rand(X, N, I), *weights("RNN", 1), None, rand(1, N, H)],
      hidden_size=H)
# CHECK: ok: rnn_forward_h0
check("rnn_reverse_leaky_relu", "RNN", [rand(X, N, I), *weights("RNN", 1)], hidden_size=H,
      direction="reverse", activations=["LeakyRelu"], activation_alpha=[0.2])
# CHECK: ok: rnn_reverse_leaky_relu
check("rnn_bidirectional_layout1", "RNN",
      [rand(N, X, I), *weights("RNN", 2), None, rand(N, 2, H)], hidden_size=H,
      direction="bidirectional", layout=1, activations=["Relu", "Tanh"])
# CHECK: ok: rnn_bidirectional_layout1
check("rnn_bidirectional_seq_lens", "RNN", [rand(X, N, I), *weights("RNN", 2), lens],
      hidden_size=H, direction="bidirectional")
# CHECK: ok: rnn_bidirectional_seq_lens

# GRU
check("gru_forward_no_bias", "GRU", [rand(X, N, I), *weights("GRU", 1, bias=False)],
      hidden_size=H)
# CHECK: ok: gru_forward_no_bias
check("gru_reverse_linear_before_reset", "GRU",
      [rand(X, N, I), *weights("GRU", 1), None, rand(1, N, H)], hidden_size=H,
      direction="reverse", linear_before_reset=1)
# CHECK: ok: gru_reverse_linear_before_reset
check("gru_bidirectional_seq_lens_clip", "GRU",
      [4 * rand(X, N, I), *weights("GRU", 2), lens, rand(2, N, H)], hidden_size=H,
      direction="bidirectional", clip=0.5)
# CHECK: ok: gru_bidirectional_seq_lens_clip
check("gru_hard_sigmoid_layout1", "GRU", [rand(N, X, I), *weights("GRU", 1)], hidden_size=H,
      layout=1, activations=["HardSigmoid", "Tanh"], activation_alpha=[0.3],
      activation_beta=[0.6])
# CHECK: ok: gru_hard_sigmoid_layout1

# LSTM
check("lstm_forward_peepholes", "LSTM",
      [rand(X, N, I), *weights("LSTM", 1), None, rand(1, N, H), rand(1, N, H), rand(1, 3 * H)],
      hidden_size=H)
# CHECK: ok: lstm_forward_peepholes
check("lstm_reverse_clip", "LSTM", [3 * rand(X, N, I), *weights("LSTM", 1)], hidden_size=H,
      direction="reverse", clip=0.7)
# CHECK: ok: lstm_reverse_clip
check("lstm_bidirectional_layout1_seq_lens", "LSTM",
      [rand(N, X, I), *weights("LSTM", 2), lens, rand(N, 2, H), rand(N, 2, H), rand(2, 3 * H)],
      hidden_size=H, direction="bidirectional", layout=1)
# CHECK: ok: lstm_bidirectional_layout1_seq_lens
check("lstm_only_y_c", "LSTM", [rand(X, N, I), *weights("LSTM", 1)], outputs=[None, None, "Y_c"],
      hidden_size=H)
# CHECK: ok: lstm_only_y_c
# A symbolic batch: built once, run at two batch sizes.
lstm_weights = weights("LSTM", 1)
check("lstm_symbolic_batch", "LSTM", [rand(X, N, I), *lstm_weights], x_shape=[X, "batch", I],
      runs=[{"X": rand(X, 5, I), "W": lstm_weights[0], "R": lstm_weights[1],
             "B": lstm_weights[2]}], hidden_size=H)
# CHECK: ok: lstm_symbolic_batch


# Errors
def one_node(op, x_shape, g, **attrs):
    node = helper.make_node(op, ["X", "W", "R"], ["Y"], hidden_size=H, **attrs)
    inputs = [tensor_info("X", np.float32, x_shape)]
    return make_model([node], inputs, [tensor_info("Y", np.float32, [None] * 4)],
                      {"W": rand(1, g * H, I), "R": rand(1, g * H, H)}, opset=14)


x = rand(X, N, I)
expect_error("dynamic sequence length", one_node("LSTM", ["seq", N, I], 4), [x],
             "unsupported: input 0 'X' has a dynamic sequence length")
# CHECK: ok: dynamic sequence length
# CHECK-NEXT: error: {{.*}}node #0 (LSTM, opset 14): unsupported: input 0 'X' has a dynamic sequence length (dimension 0); relaxc unrolls the recurrence at import and needs it static
expect_error("unsupported activation", one_node("RNN", [X, N, I], 1, activations=["Softplus"]),
             [x], "unsupported: attribute 'activations'")
# CHECK: ok: unsupported activation
# CHECK-NEXT: error: {{.*}}node #0 (RNN, opset 14): unsupported: attribute 'activations': "Softplus" is not supported; relaxc supports Sigmoid, Tanh, Relu, HardSigmoid, LeakyRelu, Affine and ScaledTanh
expect_error("activations count", one_node("GRU", [X, N, I], 3, activations=["Tanh"]), [x],
             "invalid: attribute 'activations'")
# CHECK: ok: activations count
# CHECK-NEXT: error: {{.*}}node #0 (GRU, opset 14): invalid: attribute 'activations' has 1 entries; expected 2 per direction, 2 in all
expect_error("input_forget", one_node("LSTM", [X, N, I], 4, input_forget=1), [x],
             "unsupported: attribute 'input_forget'")
# CHECK: ok: input_forget
# CHECK-NEXT: error: {{.*}}node #0 (LSTM, opset 14): unsupported: attribute 'input_forget' = 1 (coupled input and forget gates) is not supported
expect_error("wrong W", one_node("RNN", [X, N, I], 2), [x], "invalid: input 1 'W'")
# CHECK: ok: wrong W
# CHECK-NEXT: error: {{.*}}node #0 (RNN, opset 14): invalid: input 1 'W' has dimension 1 = 6; expected 3 (gates * hidden_size)
wrong_r = make_model([helper.make_node("RNN", ["X", "W", "R"], ["Y"], hidden_size=H)],
                     [tensor_info("X", np.float32, [X, N, I])],
                     [tensor_info("Y", np.float32, [None] * 4)],
                     {"W": rand(1, H, I), "R": rand(1, H, H + 1)}, opset=14)
expect_error("wrong R", wrong_r, [x], "invalid: input 2 'R'")
# CHECK: ok: wrong R
# CHECK-NEXT: error: {{.*}}node #0 (RNN, opset 14): invalid: input 2 'R' has dimension 2 = 4; expected 3 (hidden_size)
expect_error("empty sequence", one_node("GRU", [0, N, I], 3), [np.zeros((0, N, I), np.float32)],
             "unsupported: input 0 'X' has an empty sequence")
# CHECK: ok: empty sequence
# CHECK-NEXT: error: {{.*}}node #0 (GRU, opset 14): unsupported: input 0 'X' has an empty sequence
