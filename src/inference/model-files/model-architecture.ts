import { z } from "zod";

/**
 * Architectures selfplay makes and validates. Both are decoder-only RMSNorm +
 * SwiGLU transformers; `qwen2` adds q/k/v biases and uses NEOX-style rope.
 */
export const ModelArchitectureSchema = z.enum(["llama", "qwen2"]);
export type ModelArchitecture = z.infer<typeof ModelArchitectureSchema>;

export const MODEL_ARCHITECTURES: readonly ModelArchitecture[] = ModelArchitectureSchema.options;
