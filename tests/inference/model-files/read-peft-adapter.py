"""Reads a PEFT LoRA adapter folder back without selfplay's code, and compares it with a GGUF adapter.

Usage: read-peft-adapter.py FOLDER EXPECTED_JSON [safetensors]

adapter_model.safetensors is parsed from its published format (an unsigned 64-bit little-endian header length,
the JSON header, then little-endian data) with struct, json and numpy; adapter_config.json with json. With a third
argument `safetensors`, its tensors and metadata are the ones Hugging Face's own `safetensors` package reads
(safetensors.numpy.load_file, safe_open(...).metadata()), the layout fields still from the parse above. EXPECTED_JSON
holds the GGUF adapter's tensors as the GGUF stores them (dims innermost first, values row-major) and, for some base
matrices, the delta that merging the adapter added to them. The names are mapped Hugging Face -> GGUF the way
llama.cpp's convert_lora_to_gguf.py does, and a llama's q_proj / k_proj lora_B rows are compared after llama.cpp's
own LlamaModel.permute (convert_hf_to_gguf.py), copied below. Prints one JSON report on stdout.
"""
import json
import re
import struct
import sys

import numpy as np

# gguf-py's tensor_mapping.py, for llama and qwen2: model.layers.{bid}.<module> -> blk.{bid}.<kind>.
HF_TO_GGUF = {
    "self_attn.q_proj": "attn_q",
    "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v",
    "self_attn.o_proj": "attn_output",
    "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up",
    "mlp.down_proj": "ffn_down",
}
NAME = re.compile(r"^base_model\.model\.model\.layers\.(\d+)\.(self_attn\.\w+|mlp\.\w+)\.lora_([AB])\.weight$")


def permute(weights, n_head, n_head_kv):
    # llama.cpp convert_hf_to_gguf.py, LlamaModel.permute (numpy's reshape and swapaxes behave as torch's here).
    if n_head_kv is not None and n_head != n_head_kv:
        n_head = n_head_kv
    return (weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:])
            .swapaxes(1, 2)
            .reshape(weights.shape))


def read_safetensors(path):
    with open(path, "rb") as file:
        raw = file.read()
    (header_length,) = struct.unpack("<Q", raw[:8])
    header_bytes = raw[8:8 + header_length]
    header = json.loads(header_bytes.decode("utf-8"))
    data = raw[8 + header_length:]
    metadata = header.pop("__metadata__", None)
    spans = sorted((entry["data_offsets"][0], entry["data_offsets"][1], name) for name, entry in header.items())
    position = 0
    contiguous = True
    for begin, end, _ in spans:
        contiguous = contiguous and begin == position
        position = end
    contiguous = contiguous and position == len(data)
    tensors = {}
    for name, entry in header.items():
        begin, end = entry["data_offsets"]
        tensors[name] = np.frombuffer(data[begin:end], dtype="<f4").reshape(entry["shape"])
    return {
        "headerLength": header_length,
        "headerStartsWithBrace": header_bytes[:1] == b"{",
        "dataStart": 8 + header_length,
        "contiguous": contiguous,
        "metadata": metadata,
        "names": [name for _, _, name in spans],
        "dtypes": sorted({entry["dtype"] for entry in header.values()}),
        "shapes": {name: entry["shape"] for name, entry in header.items()},
    }, tensors


def read_with_package(path, report):
    # Hugging Face's reader (what PEFT and vLLM load adapters with) in place of the parse's tensors and metadata.
    from safetensors import safe_open
    from safetensors.numpy import load_file

    with safe_open(path, framework="np") as file:
        metadata = file.metadata()
    tensors = load_file(path)
    return {**report, "metadata": metadata, "dtypes": sorted({str(values.dtype) for values in tensors.values()})}, tensors


def gguf_matrix(tensor):
    # GGUF dims are innermost first: the row-major shape is their reverse.
    return np.array(tensor["values"], dtype=np.float32).reshape(list(reversed(tensor["dims"])))


def main():
    folder, expected_path = sys.argv[1], sys.argv[2]
    with open(expected_path, "r") as file:
        expected = json.load(file)
    report, tensors = read_safetensors(f"{folder}/adapter_model.safetensors")
    if sys.argv[3:] == ["safetensors"]:
        report, tensors = read_with_package(f"{folder}/adapter_model.safetensors", report)
    with open(f"{folder}/adapter_config.json", "r") as file:
        config = json.load(file)
    report["config"] = config
    llama = expected["architecture"] == "llama"
    rope_heads = {"attn_q": (expected["headCount"], expected["headCount"]), "attn_k": (expected["headCount"], expected["headCountKv"])}

    pairs = {}
    peft = {}
    for name, values in tensors.items():
        match = NAME.match(name)
        if match is None:
            pairs[name] = {"unmapped": True}
            continue
        kind = HF_TO_GGUF[match.group(2)]
        base = f"blk.{match.group(1)}.{kind}.weight"
        peft.setdefault(base, {"kind": kind})[match.group(3)] = values
    for base, pair in peft.items():
        gguf = expected["tensors"][base]
        gguf_a, gguf_b = gguf_matrix(gguf["a"]), gguf_matrix(gguf["b"])
        a, b = pair["A"], pair["B"]
        permuted = llama and pair["kind"] in rope_heads
        converted_b = permute(b, *rope_heads[pair["kind"]]) if permuted else b
        pairs[base] = {
            "a": a.shape == gguf_a.shape and bool(np.array_equal(a, gguf_a)),
            "b": converted_b.shape == gguf_b.shape and bool(np.array_equal(converted_b, gguf_b)),
            "bAsStored": b.shape == gguf_b.shape and bool(np.array_equal(b, gguf_b)),
            "permuted": permuted,
        }
    report["pairs"] = pairs

    deltas = {}
    for base, merged in expected["deltas"].items():
        pair = peft[base]
        # PEFT's forward adds (lora_alpha / r) * lora_B(lora_A(x)), i.e. the weight delta scaling * B @ A.
        delta = (config["lora_alpha"] / config["r"]) * (pair["B"].astype(np.float64) @ pair["A"].astype(np.float64))
        if llama and pair["kind"] in rope_heads:
            delta = permute(delta, *rope_heads[pair["kind"]])
        reference = gguf_matrix(merged).astype(np.float64)
        deltas[base] = {
            "maxDifference": float(np.max(np.abs(delta - reference))),
            "maxMagnitude": float(np.max(np.abs(reference))),
        }
    report["deltas"] = deltas
    print(json.dumps(report))


main()
