// Inference on local models: the llama.cpp client, devices, grammars, model and LoRA adapter files, embeddings.
export { LlamaInferenceClient } from "./llama/llama-inference-client.js";
export { LlamaInferenceClientOptionsSchema, type LlamaInferenceClientOptions } from "./llama/llama-client-options.js";
export { DeviceSchema, DeviceRecordSchema, parseDevice, resolveDevice, describeDevice, deviceRecord, type Device, type DeviceKind, type DeviceRequest, type DeviceRecord, type GgmlDevice, type ResolvedDevice } from "./device/index.js";
export { findDevice } from "./native/open-native-device.js";
export { listNativeDevices, type NativeDevices } from "./native/list-native-devices.js";
export { jsonSchemaToGbnf } from "./grammar/json-schema-to-gbnf.js";
export { createRandomModel, CreateRandomModelOptionsSchema, type CreateRandomModelOptions, type CreatedModel } from "./model-files/create-random-model.js";
export { validateModelFile, type ValidatedModelFile } from "./model-files/validate-model-file.js";
export { MODEL_PRESETS, ModelPresetNameSchema, type ModelPresetName } from "./model-files/model-presets.js";
export { writeLoraAdapter, WriteLoraAdapterOptionsSchema, type WriteLoraAdapterOptions, type LoraMatrixPair, type WrittenLoraAdapter } from "./model-files/write-lora-adapter.js";
export { createRandomLoraAdapter, CreateRandomLoraAdapterOptionsSchema, DEFAULT_LORA_TARGETS, type CreateRandomLoraAdapterOptions } from "./model-files/create-random-lora-adapter.js";
export { readLoraAdapter, type LoraAdapterHeader, type LoraAdapterTensor } from "./model-files/read-lora-adapter.js";
export { validateLoraAdapter, type ValidatedLoraAdapter } from "./model-files/validate-lora-adapter.js";
export { mergeLoraAdapter, MergeLoraAdapterOptionsSchema, type MergeLoraAdapterOptions, type MergedModel } from "./model-files/merge-lora-adapter.js";
export { ConstraintMasksSchema, type ConstraintMasks } from "./grammar/constraint-masks.js";
export { LlamaTextEmbedder, LlamaTextEmbedderOptionsSchema, type LlamaTextEmbedderOptions } from "./embeddings/llama-text-embedder.js";
export { DeviceNotFoundError, DeviceBuildConflictError, GrammarRejectedTokenError } from "./errors/index.js";
