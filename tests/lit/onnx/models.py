# A BERT-like encoder exported from PyTorch (scripts/onnx_models.py: embeddings, two
# layers of multi-head attention with a padding mask, LayerNorm, a GELU MLP; dynamic
# batch and sequence length): built once, run at batch 1 and 3 and sequence 5 and 12,
# compared with PyTorch. ResNet-18 and MobileNetV2 (about a minute each on lavapipe) run
# with the same script by hand (README, "ONNX models").
# REQUIRES: torch
# RUN: %python %S/../../../scripts/onnx_models.py --relaxc %relaxc --work %t --device vulkan encoder 2>&1 | FileCheck %s
# CHECK: ok: encoder: exported and built once
# CHECK: ok: encoder 1x5: matches PyTorch
# CHECK: ok: encoder 1x12: matches PyTorch
# CHECK: ok: encoder 3x5: matches PyTorch
# CHECK: ok: encoder 3x12: matches PyTorch
# CHECK-NOT: FAIL
