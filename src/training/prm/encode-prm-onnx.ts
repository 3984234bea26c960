import onnxProto from "onnx-proto";
import type { PrmNetworkShape } from "../../frontier/prm/prm-metadata.js";
import { PRM_ONNX_GRAPH, PRM_ONNX_INITIALISERS } from "./prm-onnx-graph.js";
import { checkPrmWeights, prmWeightShapes, type PrmWeights } from "./prm-weights.js";

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

/**
 * The PRM as an ONNX ModelProto, written by hand with onnx-proto's schema:
 * `probability = Sigmoid(Gemm(act(Gemm(features, W1, b1)), W2, b2))`, input
 * `features` `[batch, inputDimensions]`, output `probability` `[batch, 1]`,
 * float32 initialisers stored little-endian in `raw_data`, opset 13.
 */
export function encodePrmOnnx(weights: PrmWeights, shape: PrmNetworkShape): Uint8Array {
  checkPrmWeights(weights, shape);
  const shapes = prmWeightShapes(shape);
  const initialiser = (name: keyof PrmWeights) =>
    onnx.TensorProto.create({ name: PRM_ONNX_INITIALISERS[name], dims: shapes[name], dataType: FLOAT, rawData: littleEndianBytes(weights[name]) });
  const valueInfo = (name: string, dims: readonly (number | string)[]) => ({
    name,
    type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((size) => (typeof size === "string" ? { dimParam: size } : { dimValue: size })) } } },
  });
  const { input, output } = PRM_ONNX_GRAPH;
  const graph = onnx.GraphProto.create({
    name: "selfplay-prm",
    node: [
      { name: "dense1", opType: "Gemm", input: [input, PRM_ONNX_INITIALISERS.firstWeights, PRM_ONNX_INITIALISERS.firstBias], output: ["dense1.output"] },
      { name: "activation", opType: shape.activation === "relu" ? "Relu" : "Tanh", input: ["dense1.output"], output: ["hidden"] },
      { name: "dense2", opType: "Gemm", input: ["hidden", PRM_ONNX_INITIALISERS.secondWeights, PRM_ONNX_INITIALISERS.secondBias], output: ["logit"] },
      { name: "sigmoid", opType: "Sigmoid", input: ["logit"], output: [output] },
    ],
    initializer: [initialiser("firstWeights"), initialiser("firstBias"), initialiser("secondWeights"), initialiser("secondBias")],
    input: [valueInfo(input, ["batch", shape.inputDimensions])],
    output: [valueInfo(output, ["batch", 1])],
  });
  const model = onnx.ModelProto.create({
    irVersion: PRM_ONNX_GRAPH.irVersion,
    opsetImport: [{ domain: "", version: PRM_ONNX_GRAPH.opset }],
    producerName: "selfplay",
    docString: "selfplay process reward model: P(the solution this prefix begins is correct)",
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** float32 values as little-endian bytes, whatever the machine's byte order (ONNX raw_data is little-endian). */
function littleEndianBytes(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return bytes;
}
