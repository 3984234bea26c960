import onnxProto from "onnx-proto";
import { PrmModelError } from "../../frontier/errors/index.js";
import type { PrmNetworkShape } from "../../frontier/prm/prm-metadata.js";
import { PRM_ONNX_INITIALISERS } from "./prm-onnx-graph.js";
import { prmWeightShapes, type PrmWeights } from "./prm-weights.js";

const { onnx } = onnxProto;

/** The weights `encodePrmOnnx` wrote into `bytes`, checked against `shape` (from `prm.json`); `path` names the file in errors. */
export function decodePrmOnnx(bytes: Uint8Array, shape: PrmNetworkShape, path: string): PrmWeights {
  let model: InstanceType<typeof onnx.ModelProto>;
  try {
    model = onnx.ModelProto.decode(bytes);
  } catch (error) {
    throw new PrmModelError(path, `is not an ONNX model (${(error as Error).message}); train the PRM again`, { cause: error });
  }
  const initialisers = new Map((model.graph?.initializer ?? []).map((tensor) => [tensor.name ?? "", tensor]));
  const shapes = prmWeightShapes(shape);
  const read = (name: keyof PrmWeights): Float32Array => {
    const tensor = initialisers.get(PRM_ONNX_INITIALISERS[name]);
    const dims = (tensor?.dims ?? []).map(Number);
    const expected = shapes[name];
    if (!tensor || tensor.dataType !== onnx.TensorProto.DataType.FLOAT || dims.join(",") !== expected.join(",")) {
      throw new PrmModelError(path, `initialiser ${PRM_ONNX_INITIALISERS[name]} is missing or not float32 [${expected.join(", ")}]; prm.json and prm.onnx disagree, train the PRM again`);
    }
    const count = expected.reduce((product, size) => product * size, 1);
    const values = fromLittleEndian(tensor, count);
    if (values.length !== count) throw new PrmModelError(path, `initialiser ${PRM_ONNX_INITIALISERS[name]} holds ${values.length} values, not ${count}; the file is truncated, train the PRM again`);
    return values;
  };
  return { firstWeights: read("firstWeights"), firstBias: read("firstBias"), secondWeights: read("secondWeights"), secondBias: read("secondBias") };
}

/** A FLOAT tensor's values, from raw_data (little-endian) or float_data, whichever it uses. */
function fromLittleEndian(tensor: { rawData?: Uint8Array | null; floatData?: number[] | null }, count: number): Float32Array {
  if (tensor.rawData && tensor.rawData.length > 0) {
    const view = new DataView(tensor.rawData.buffer, tensor.rawData.byteOffset, tensor.rawData.byteLength);
    return Float32Array.from({ length: Math.min(count, tensor.rawData.byteLength / 4) }, (_, index) => view.getFloat32(index * 4, true));
  }
  return Float32Array.from(tensor.floatData ?? []);
}
