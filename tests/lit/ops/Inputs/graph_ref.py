"""NumPy references of the whole-graph tests (tests/lit/ops/graphs), written from the
operators' definitions; the convolutions come from spatial_ref."""

import math

import numpy as np

import spatial_ref


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def gelu(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def mlp(x, w1, b1, w2, b2):
    h = np.maximum(x.astype(np.float64) @ w1 + b1, 0)
    return softmax(h @ w2 + b2)


def conv_block(x, w, gamma, beta, mean, var, wd, bd):
    y = spatial_ref.conv(x.astype(np.float64), w, [1, 1], [1, 1, 1, 1], [1, 1])
    c = (slice(None), None, None)
    y = (y - mean[c]) / np.sqrt(var[c] + 1e-5) * gamma[c] + beta[c]
    y = np.maximum(y, 0)
    n, ch, h, wdt = y.shape
    y = y.reshape(n, ch, h // 2, 2, wdt // 2, 2).max(axis=(3, 5))
    y = y.mean(axis=(2, 3))
    return y @ wd + bd


def encoder(x, g1, b1, wqkv, wo, g2, b2, w1, w2, heads=4):
    x = x.astype(np.float64)
    s, d = x.shape[1], x.shape[2]
    hd = d // heads
    h = layer_norm(x, g1, b1)
    qkv = h @ wqkv
    q, k, v = np.split(qkv, 3, axis=-1)
    split_heads = lambda t: t.reshape(1, s, heads, hd).transpose(0, 2, 1, 3)
    q, k, v = split_heads(q), split_heads(k), split_heads(v)
    att = softmax(q @ k.transpose(0, 1, 3, 2) / math.sqrt(hd))
    o = (att @ v).transpose(0, 2, 1, 3).reshape(1, s, d)
    x = x + o @ wo
    h = layer_norm(x, g2, b2)
    return x + gelu(h @ w1) @ w2


def depthwise_separable(x, wd, wp):
    y = spatial_ref.conv(x.astype(np.float64), wd, [1, 1], [1, 1, 1, 1], [1, 1],
                         groups=x.shape[1])
    y = np.clip(y, 0, 6)
    y = spatial_ref.conv(y, wp, [1, 1], [0, 0, 0, 0], [1, 1])
    return np.clip(y, 0, 6)
