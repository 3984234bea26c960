/** Names and versions of the ONNX graph the PRM is exported as; `prm.json` records them for the scorer. */
export const PRM_ONNX_GRAPH = {
  input: "features",
  output: "probability",
  /** Gemm, Relu, Tanh and Sigmoid have had their current form since opset 13. */
  opset: 13,
  /** IR version 7 is the first that opset 13 may be used with. */
  irVersion: 7,
} as const;

/** The initialiser names of each weight tensor in the graph. */
export const PRM_ONNX_INITIALISERS = {
  firstWeights: "dense1.weight",
  firstBias: "dense1.bias",
  secondWeights: "dense2.weight",
  secondBias: "dense2.bias",
} as const;
