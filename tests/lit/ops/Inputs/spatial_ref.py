"""NumPy references of the spatial operators for op_check.py's --reference expressions
(`__import__("spatial_ref").conv(x, w, ...)`; op_check.py's folder is on sys.path).

Written from the operators' definitions (PyTorch's and ONNX's semantics, which TVM
follows), loop by loop where that is clearest: the shapes in the tests are small. All
take and return NCHW (NCW) tensors and OIHW (IOHW) kernels; tests transpose for others.
"""

import math

import numpy as np


def _windows(x, pad_before, pad_after, value):
    """x padded on its spatial axes (2 onwards) with `value`."""
    widths = [(0, 0), (0, 0)] + list(zip(pad_before, pad_after))
    return np.pad(x, widths, mode="constant", constant_values=value)


def conv(x, w, strides, padding, dilation, groups=1):
    """Convolution (cross-correlation) of N-d spatial data; padding = befores + afters."""
    spatial = x.ndim - 2
    xp = _windows(x, padding[:spatial], padding[spatial:], 0)
    n, c = x.shape[:2]
    o, ipg = w.shape[:2]
    kernel = w.shape[2:]
    out_dims = [(xp.shape[2 + s] - dilation[s] * (kernel[s] - 1) - 1) // strides[s] + 1
                for s in range(spatial)]
    out = np.zeros((n, o, *out_dims), dtype=np.float64)
    opg = o // groups
    for oc in range(o):
        g = oc // opg
        xs = xp[:, g * ipg:(g + 1) * ipg]
        for k in np.ndindex(*kernel):
            index = [slice(None), slice(None)]
            for s in range(spatial):
                start = k[s] * dilation[s]
                index.append(slice(start, start + strides[s] * (out_dims[s] - 1) + 1, strides[s]))
            patch = xs[tuple(index)]  # (n, ipg, out...)
            out[:, oc] += np.tensordot(patch, w[(oc, slice(None)) + k], axes=([1], [0]))
    return out.astype(x.dtype)


def conv_transpose(x, w, strides, padding, output_padding, dilation, groups=1):
    """Transposed 2-D convolution: each input element scatters its kernel-weighted copy."""
    n, c, h, wd = x.shape
    _, opg, kh, kw = w.shape
    full_h = (h - 1) * strides[0] + dilation[0] * (kh - 1) + 1 + output_padding[0]
    full_w = (wd - 1) * strides[1] + dilation[1] * (kw - 1) + 1 + output_padding[1]
    full = np.zeros((n, opg * groups, full_h, full_w), dtype=np.float64)
    ipg = c // groups
    for ic in range(c):
        g = ic // ipg
        for i in range(h):
            for j in range(wd):
                for a in range(kh):
                    for b in range(kw):
                        y = i * strides[0] + a * dilation[0]
                        z = j * strides[1] + b * dilation[1]
                        full[:, g * opg:(g + 1) * opg, y, z] += (
                            x[:, ic, i, j][:, None] * w[ic, :, a, b][None, :])
    out_h = full_h - padding[0] - padding[2]
    out_w = full_w - padding[1] - padding[3]
    return full[:, :, padding[0]:padding[0] + out_h, padding[1]:padding[1] + out_w].astype(x.dtype)


def _pool_extent(size, k, stride, dilation, before, after, ceil_mode):
    span = dilation * (k - 1) + 1
    if not ceil_mode:
        return (size + before + after - span) // stride + 1
    count = -(-(size + before + after - span) // stride) + 1
    # A last window that would start in the right padding is dropped.
    return count - 1 if (count - 1) * stride >= size + before else count


def pool(x, kind, pool_size, strides, padding, dilation=(1, 1), ceil_mode=False,
         count_include_pad=False):
    """max_pool2d / avg_pool2d on NCHW; padding = [top, left, bottom, right]."""
    n, c, h, w = x.shape
    out_h = _pool_extent(h, pool_size[0], strides[0], dilation[0], padding[0], padding[2],
                         ceil_mode)
    out_w = _pool_extent(w, pool_size[1], strides[1], dilation[1], padding[1], padding[3],
                         ceil_mode)
    out = np.zeros((n, c, out_h, out_w), dtype=np.float64)
    for i in range(out_h):
        for j in range(out_w):
            values, inside_padded = [], 0
            for a in range(pool_size[0]):
                for b in range(pool_size[1]):
                    y = i * strides[0] + a * dilation[0] - padding[0]
                    z = j * strides[1] + b * dilation[1] - padding[1]
                    if -padding[0] <= y < h + padding[2] and -padding[1] <= z < w + padding[3]:
                        inside_padded += 1
                    if 0 <= y < h and 0 <= z < w:
                        values.append(x[:, :, y, z])
            if kind == "max":
                out[:, :, i, j] = np.max(values, axis=0)
            else:
                divisor = inside_padded if count_include_pad else len(values)
                out[:, :, i, j] = np.sum(values, axis=0) / divisor
    return out.astype(x.dtype)


def adaptive_avg_pool(x, out_h, out_w):
    """Window i of n over a size-s axis is [floor(i * s / n), ceil((i + 1) * s / n))."""
    n, c, h, w = x.shape
    out = np.zeros((n, c, out_h, out_w), dtype=np.float64)
    for i in range(out_h):
        for j in range(out_w):
            y0, y1 = (i * h) // out_h, -(-((i + 1) * h) // out_h)
            z0, z1 = (j * w) // out_w, -(-((j + 1) * w) // out_w)
            out[:, :, i, j] = x[:, :, y0:y1, z0:z1].mean(axis=(2, 3))
    return out.astype(x.dtype)


def _source(x_out, size_in, size_out, mode, start=0.0, end=0.0):
    scale = size_in / size_out
    if mode == "half_pixel":
        return (x_out + 0.5) * scale - 0.5
    if mode == "pytorch_half_pixel":
        return (x_out + 0.5) * scale - 0.5 if size_out > 1 else 0.0
    if mode == "align_corners":
        return x_out * (size_in - 1) / (size_out - 1) if size_out > 1 else 0.0
    if mode == "asymmetric":
        return x_out * scale
    if mode == "tf_half_pixel_for_nn":
        return (x_out + 0.5) * scale
    if mode == "tf_crop_and_resize":
        if size_out == 1:
            return (start + end) / 2 * (size_in - 1)
        return start * (size_in - 1) + x_out * (end - start) * (size_in - 1) / (size_out - 1)
    raise ValueError(mode)


def _nearest(coord, rounding):
    if rounding == "floor":
        return math.floor(coord)
    if rounding == "ceil":
        return math.ceil(coord)
    if rounding == "round_prefer_ceil":
        return math.floor(coord + 0.5)
    if rounding == "round_prefer_floor":
        return math.ceil(coord - 0.5)
    return int(np.round(coord))  # the tests avoid ties


def _keys(d, alpha):
    """Keys' cubic convolution kernel at distance d."""
    d = abs(d)
    if d <= 1:
        return (alpha + 2) * d ** 3 - (alpha + 3) * d ** 2 + 1
    if d < 2:
        return alpha * d ** 3 - 5 * alpha * d ** 2 + 8 * alpha * d - 4 * alpha
    return 0.0


def _taps(coord, size, method, rounding, alpha, exclude):
    """[(index, weight)] that one source coordinate reads along an axis of `size`."""
    if method == "nearest_neighbor":
        taps = [(_nearest(coord, rounding), 1.0)]
    elif method == "linear":
        base = math.floor(coord)
        taps = [(base, 1 - (coord - base)), (base + 1, coord - base)]
    else:
        base = math.floor(coord)
        taps = [(i, _keys(coord - i, alpha)) for i in range(base - 1, base + 3)]
        if exclude:
            taps = [(i, wt) for i, wt in taps if 0 <= i < size]
            total = sum(wt for _, wt in taps)
            taps = [(i, wt / total) for i, wt in taps]
    return [(min(max(i, 0), size - 1), wt) for i, wt in taps]


def resize2d(x, out_h, out_w, method, mode, rounding="round", alpha=-0.75, exclude=False,
             roi=(0.0, 0.0, 0.0, 0.0), extrapolation=0.0):
    """image.resize2d on NCHW: nearest_neighbor, linear or cubic (Keys' kernel with
    `alpha`, `exclude` dropping the taps outside the image), indices clamped to the
    image; tf_crop_and_resize samples roi = [start_h, start_w, end_h, end_w] (fractions
    of the image) and gives `extrapolation` outside the image."""
    n, c, h, w = x.shape
    out = np.zeros((n, c, out_h, out_w), dtype=np.float64)
    for i in range(out_h):
        for j in range(out_w):
            y = _source(i, h, out_h, mode, roi[0], roi[2])
            z = _source(j, w, out_w, mode, roi[1], roi[3])
            if mode == "tf_crop_and_resize" and not (0 <= y <= h - 1 and 0 <= z <= w - 1):
                out[:, :, i, j] = extrapolation
                continue
            value = 0.0
            for yi, wy in _taps(y, h, method, rounding, alpha, exclude):
                for zi, wz in _taps(z, w, method, rounding, alpha, exclude):
                    value = value + wy * wz * x[:, :, yi, zi].astype(np.float64)
            out[:, :, i, j] = value
    return out.astype(x.dtype)


def attention(q, k, v, bias=None, scale=None, causal_mask=None):
    """softmax(q k^T * scale + bias, masked) v on BSNH tensors; key/value heads may be
    fewer than the query's (each serves a group of query heads)."""
    b, s, heads, d = q.shape
    kv_heads = k.shape[2]
    k = np.repeat(k, heads // kv_heads, axis=2)
    v = np.repeat(v, heads // kv_heads, axis=2)
    scale = 1.0 / math.sqrt(d) if scale is None else scale
    scores = np.einsum("bqhd,bkhd->bhqk", q.astype(np.float64), k) * scale
    if bias is not None:
        scores = scores + bias
    if causal_mask is not None:
        sk = k.shape[1]
        offset = 0 if causal_mask == "TopLeft" else sk - s
        allowed = np.tril(np.ones((s, sk), dtype=bool), k=offset)
        scores = np.where(allowed, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return np.einsum("bhqk,bkhd->bqhd", weights, v).astype(q.dtype)
