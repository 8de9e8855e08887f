"""NumPy references of the ONNX convolutions and poolings for the tests of
tests/lit/onnx (nn_*.py), written loop by loop from the ONNX specification so that they
judge relaxc's operators rather than repeat them. Spatial parameters are per spatial
dimension; pads are all the begins, then all the ends, as ONNX gives them."""

import numpy as np


def _defaults(spatial, strides, pads, dilations):
    return (list(strides or [1] * spatial), list(pads or [0] * (2 * spatial)),
            list(dilations or [1] * spatial))


def conv(x, w, b=None, strides=None, pads=None, dilations=None, group=1):
    """ONNX Conv: x (N, C, spatial...), w (M, C / group, kernel...), b (M)."""
    spatial = x.ndim - 2
    strides, pads, dilations = _defaults(spatial, strides, pads, dilations)
    padded = np.pad(x.astype(np.float64),
                    [(0, 0), (0, 0)] + [(pads[i], pads[spatial + i]) for i in range(spatial)])
    n, c = x.shape[:2]
    m, kernel = w.shape[0], w.shape[2:]
    cg, mg = c // group, m // group
    out = [(padded.shape[2 + i] - dilations[i] * (kernel[i] - 1) - 1) // strides[i] + 1
           for i in range(spatial)]
    y = np.zeros((n, m, *out))
    for o in np.ndindex(*out):
        for k in np.ndindex(*kernel):
            at = tuple(o[i] * strides[i] + k[i] * dilations[i] for i in range(spatial))
            patch = padded[(slice(None), slice(None)) + at]  # (N, C)
            for g in range(group):
                weights = w[(slice(g * mg, (g + 1) * mg), slice(None)) + k]  # (M / group, C / group)
                y[(slice(None), slice(g * mg, (g + 1) * mg)) + o] += \
                    patch[:, g * cg:(g + 1) * cg] @ weights.T
    if b is not None:
        y += b.reshape((1, m) + (1,) * spatial)
    return y.astype(x.dtype)


def conv_transpose(x, w, b=None, strides=None, pads=None, dilations=None, group=1,
                   output_padding=None):
    """ONNX ConvTranspose: x (N, C, spatial...), w (C, M / group, kernel...); every input
    element scatters its kernel into the full output, which the pads then crop."""
    spatial = x.ndim - 2
    strides, pads, dilations = _defaults(spatial, strides, pads, dilations)
    output_padding = list(output_padding or [0] * spatial)
    n, c = x.shape[:2]
    mg, kernel = w.shape[1], w.shape[2:]
    cg, m = c // group, mg * group
    full = [(x.shape[2 + i] - 1) * strides[i] + dilations[i] * (kernel[i] - 1) + 1 +
            output_padding[i] for i in range(spatial)]
    y = np.zeros((n, m, *full))
    for at in np.ndindex(*x.shape[2:]):
        for k in np.ndindex(*kernel):
            o = tuple(at[i] * strides[i] + k[i] * dilations[i] for i in range(spatial))
            for g in range(group):
                weights = w[(slice(g * cg, (g + 1) * cg), slice(None)) + k]  # (C / group, M / group)
                y[(slice(None), slice(g * mg, (g + 1) * mg)) + o] += \
                    x[(slice(None), slice(g * cg, (g + 1) * cg)) + at] @ weights
    crop = tuple(slice(pads[i], full[i] - pads[spatial + i]) for i in range(spatial))
    y = y[(slice(None), slice(None)) + crop]
    if b is not None:
        y += b.reshape((1, m) + (1,) * spatial)
    return y.astype(x.dtype)


def pool(x, kind, kernel, strides=None, pads=None, dilations=None, ceil_mode=False,
         count_include_pad=False):
    """ONNX MaxPool ("max") and AveragePool ("avg"): padding never wins a maximum and
    counts in an average only with count_include_pad; with ceil_mode the last window may
    overhang the padded input, and the overhang never counts."""
    spatial = x.ndim - 2
    strides, pads, dilations = _defaults(spatial, strides, pads, dilations)
    n, c = x.shape[:2]
    out = []
    for i in range(spatial):
        span = x.shape[2 + i] + pads[i] + pads[spatial + i] - dilations[i] * (kernel[i] - 1) - 1
        out.append((-(-span // strides[i]) if ceil_mode else span // strides[i]) + 1)
    y = np.zeros((n, c, *out))
    for o in np.ndindex(*out):
        values, padding = [], 0
        for k in np.ndindex(*kernel):
            at = [o[i] * strides[i] + k[i] * dilations[i] - pads[i] for i in range(spatial)]
            inside = all(0 <= at[i] < x.shape[2 + i] for i in range(spatial))
            in_padding = all(-pads[i] <= at[i] < x.shape[2 + i] + pads[spatial + i]
                             for i in range(spatial))
            if inside:
                values.append(x[(slice(None), slice(None)) + tuple(at)])
            elif in_padding:
                padding += 1
        stack = np.stack(values).astype(np.float64)
        if kind == "max":
            y[(slice(None), slice(None)) + o] = stack.max(0)
        elif count_include_pad:
            y[(slice(None), slice(None)) + o] = stack.sum(0) / (len(values) + padding)
        else:
            y[(slice(None), slice(None)) + o] = stack.mean(0)
    return y.astype(x.dtype)
