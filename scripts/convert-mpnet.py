"""Builds an ONNX graph of sentence-transformers/all-mpnet-base-v2 from its safetensors weights.

Written out op by op with the `onnx` helper API because the usual exporter needs torch, which is far
too large to install at set-up time. Input: the model's model.safetensors (sha256-checked by
scripts/models.sh). Output: model.onnx taking input_ids and attention_mask [batch, tokens] (int64)
and returning last_hidden_state [batch, tokens, 768]; pooling (mean over real tokens) and L2
normalisation happen in LocalEmbeddingProvider, as for the other local models.

MatMul weights are stored as int8 with one scale per output channel (symmetric) and dequantized in
the graph, so the arithmetic stays fp32; embeddings, biases and layer norms stay fp32.

    python convert-mpnet.py MODEL.safetensors OUT.onnx [--check]

--check also runs the graph once next to a plain numpy forward pass with the unquantized weights and
fails if the pooled vectors agree less than a cosine of 0.995 (int8 weights alone give ~0.999) (catches wiring
mistakes in the graph; the numpy pass follows the published MPNet architecture independently).
"""
import math
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file

HIDDEN = 768
HEADS = 12
HEAD_DIM = HIDDEN // HEADS
LAYERS = 12
EPS = 1e-5
PAD_ID = 1  # MPNet's <pad>: position ids start after it
BUCKETS = 32
MAX_DISTANCE = 128
OPSET = 19


def relative_buckets(length):
    """MPNet's bucketed relative positions (T5-style, bidirectional), for every (query, key) pair."""
    context = np.arange(length)[:, None]
    memory = np.arange(length)[None, :]
    n = -(memory - context)
    half = BUCKETS // 2
    ret = (n < 0).astype(np.int64) * half
    n = np.abs(n)
    max_exact = half // 2
    # log(0) never reaches the result (small distances take n itself); max(n, 1) keeps it finite.
    large = max_exact + (
        np.log(np.maximum(n, 1).astype(np.float32) / np.float32(max_exact)) / np.float32(math.log(MAX_DISTANCE / max_exact)) * np.float32(half - max_exact)
    ).astype(np.int64)
    large = np.minimum(large, half - 1)
    return ret + np.where(n < max_exact, n, large)


class Graph:
    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, hint):
        self.n += 1
        return f"{hint}_{self.n}"

    def init(self, hint, array):
        name = self.name(hint)
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def op(self, op_type, inputs, hint=None, **attrs):
        out = self.name(hint or op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], **attrs))
        return out

    def linear(self, x, weight, bias, hint):
        """x @ weight.T + bias with weight [out, in] stored int8 per output channel."""
        w = weight.T.astype(np.float32)  # [in, out]
        scale = np.maximum(np.abs(w).max(axis=0), 1e-12) / 127.0
        q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
        deq = self.op(
            "DequantizeLinear",
            [self.init(hint + "_wq", q), self.init(hint + "_ws", scale.astype(np.float32)), self.init(hint + "_wz", np.zeros(scale.shape, np.int8))],
            axis=1,
        )
        return self.op("Add", [self.op("MatMul", [x, deq]), self.init(hint + "_b", bias.astype(np.float32))])

    def layer_norm(self, x, w, b):
        return self.op("LayerNormalization", [x, self.init("ln_w", w), self.init("ln_b", b)], axis=-1, epsilon=EPS)


def build(weights):
    g = Graph()
    ids, mask = "input_ids", "attention_mask"
    c = lambda hint, values: g.init(hint, np.array(values, dtype=np.int64))

    # Embeddings: words + learned absolute positions counted over real tokens (padding sits at the end).
    words = g.op("Gather", [g.init("word_emb", weights["embeddings.word_embeddings.weight"]), ids])
    counted = g.op("Mul", [g.op("CumSum", [mask, c("axis1", 1)]), mask])
    positions = g.op("Add", [counted, c("pad", PAD_ID)])
    pos = g.op("Gather", [g.init("pos_emb", weights["embeddings.position_embeddings.weight"]), positions])
    x = g.layer_norm(g.op("Add", [words, pos]), weights["embeddings.LayerNorm.weight"], weights["embeddings.LayerNorm.bias"])

    # One attention bias shared by all layers: relative-position buckets cut to the batch's length,
    # looked up per head, plus the padding mask.
    length = g.op("Slice", [g.op("Shape", [ids]), c("one", [1]), c("two", [2])])
    max_len = weights["embeddings.position_embeddings.weight"].shape[0] - PAD_ID - 1
    table = g.init("buckets", relative_buckets(max_len))
    zero = c("zero", [0])
    cut = g.op("Slice", [g.op("Slice", [table, zero, length, zero]), zero, length, c("ax1", [1])])
    rel = g.op("Gather", [g.init("rel_bias", weights["encoder.relative_attention_bias.weight"]), cut])  # [L, L, heads]
    rel = g.op("Unsqueeze", [g.op("Transpose", [rel], perm=[2, 0, 1]), zero])  # [1, heads, L, L]
    mask_f = g.op("Cast", [mask], to=TensorProto.FLOAT)
    neg = g.op("Mul", [g.op("Sub", [g.init("f1", np.array(1.0, np.float32)), mask_f]), g.init("big", np.array(np.finfo(np.float32).min, np.float32))])
    neg = g.op("Unsqueeze", [neg, c("ax12", [1, 2])])  # [B, 1, 1, L]
    bias = g.op("Add", [rel, neg])

    split_heads = c("heads_shape", [0, 0, HEADS, HEAD_DIM])
    merge_heads = c("hidden_shape", [0, 0, HIDDEN])
    inv_sqrt = g.init("inv_sqrt", np.array(1.0 / math.sqrt(HEAD_DIM), np.float32))
    sqrt_half = g.init("sqrt_half", np.array(1.0 / math.sqrt(2.0), np.float32))
    half = g.init("half", np.array(0.5, np.float32))
    one = g.init("one_f", np.array(1.0, np.float32))
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        a = p + "attention.attn."
        heads = lambda name, perm: g.op("Transpose", [g.op("Reshape", [g.linear(x, weights[a + name + ".weight"], weights[a + name + ".bias"], f"l{i}{name}"), split_heads])], perm=perm)
        q, k, v = heads("q", [0, 2, 1, 3]), heads("k", [0, 2, 3, 1]), heads("v", [0, 2, 1, 3])
        scores = g.op("Add", [g.op("Mul", [g.op("MatMul", [q, k]), inv_sqrt]), bias])
        ctx = g.op("MatMul", [g.op("Softmax", [scores], axis=-1), v])
        ctx = g.op("Reshape", [g.op("Transpose", [ctx], perm=[0, 2, 1, 3]), merge_heads])
        attn = g.linear(ctx, weights[a + "o.weight"], weights[a + "o.bias"], f"l{i}o")
        x_attn = g.layer_norm(g.op("Add", [attn, x]), weights[p + "attention.LayerNorm.weight"], weights[p + "attention.LayerNorm.bias"])
        h = g.linear(x_attn, weights[p + "intermediate.dense.weight"], weights[p + "intermediate.dense.bias"], f"l{i}i")
        h = g.op("Mul", [g.op("Mul", [h, half]), g.op("Add", [one, g.op("Erf", [g.op("Mul", [h, sqrt_half])])])])  # exact GELU
        out = g.linear(h, weights[p + "output.dense.weight"], weights[p + "output.dense.bias"], f"l{i}out")
        x = g.layer_norm(g.op("Add", [out, x_attn]), weights[p + "output.LayerNorm.weight"], weights[p + "output.LayerNorm.bias"])

    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    graph = helper.make_graph(
        g.nodes,
        "all-mpnet-base-v2",
        [helper.make_tensor_value_info(ids, TensorProto.INT64, ["batch", "tokens"]), helper.make_tensor_value_info(mask, TensorProto.INT64, ["batch", "tokens"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "tokens", HIDDEN])],
        g.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="scopegraph convert-mpnet.py")
    model.ir_version = 9
    onnx.checker.check_model(model, full_check=True)
    return model


def numpy_forward(weights, ids, mask):
    """The same network in plain numpy with fp32 weights: the reference for --check."""
    ln = lambda x, w, b: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + EPS) * w + b
    lin = lambda x, name: x @ weights[name + ".weight"].T + weights[name + ".bias"]
    positions = (np.cumsum(mask, axis=1) * mask).astype(np.int64) + PAD_ID
    x = weights["embeddings.word_embeddings.weight"][ids] + weights["embeddings.position_embeddings.weight"][positions]
    x = ln(x, weights["embeddings.LayerNorm.weight"], weights["embeddings.LayerNorm.bias"])
    length = ids.shape[1]
    rel = weights["encoder.relative_attention_bias.weight"][relative_buckets(length)].transpose(2, 0, 1)[None]
    bias = rel + ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
    split = lambda t: t.reshape(t.shape[0], length, HEADS, HEAD_DIM).transpose(0, 2, 1, 3)
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        q, k, v = (split(lin(x, p + "attention.attn." + n)) for n in "qkv")
        s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(HEAD_DIM) + bias
        s = np.exp(s - s.max(-1, keepdims=True))
        ctx = (s / s.sum(-1, keepdims=True)) @ v
        ctx = ctx.transpose(0, 2, 1, 3).reshape(x.shape[0], length, HIDDEN)
        a = ln(lin(ctx, p + "attention.attn.o") + x, weights[p + "attention.LayerNorm.weight"], weights[p + "attention.LayerNorm.bias"])
        h = lin(a, p + "intermediate.dense")
        h = 0.5 * h * (1.0 + np.vectorize(math.erf)(h / math.sqrt(2.0)))
        x = ln(lin(h, p + "output.dense") + a, weights[p + "output.LayerNorm.weight"], weights[p + "output.LayerNorm.bias"])
    return x


def pooled(hidden, mask):
    v = (hidden * mask[..., None]).sum(1)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def check(model_path, weights):
    import onnx.reference  # pure-python runtime that ships with onnx: no extra dependency

    ids = np.array([[0, 2023, 2003, 1037, 3231, 6251, 2, 1], [0, 7592, 2088, 2, 1, 1, 1, 1]], dtype=np.int64)
    mask = (np.arange(ids.shape[1])[None, :] < np.array([[7], [4]])).astype(np.int64)
    session = onnx.reference.ReferenceEvaluator(model_path)
    graph_out = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
    reference = numpy_forward(weights, ids, mask.astype(np.float32))
    cos = (pooled(graph_out, mask) * pooled(reference, mask)).sum(1)
    print(f"convert-mpnet: graph vs numpy reference, cosine per sentence: {np.round(cos, 5).tolist()}")
    if cos.min() < 0.995:
        sys.exit("convert-mpnet: the graph disagrees with the numpy reference")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    weights = {k: v.astype(np.float32) if v.dtype != np.int64 else v for k, v in load_file(sys.argv[1]).items()}
    model = build(weights)
    onnx.save(model, sys.argv[2])
    print(f"convert-mpnet: wrote {sys.argv[2]}")
    if "--check" in sys.argv[3:]:
        check(sys.argv[2], weights)


if __name__ == "__main__":
    main()
