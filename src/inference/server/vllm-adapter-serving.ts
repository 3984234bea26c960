import { resolve } from "node:path";
import type { WeightUpdate } from "../../core/inference-client.js";
import { EndpointRequestError, ServerCapabilityError } from "../errors/index.js";
import { writePeftAdapter } from "../model-files/write-peft-adapter.js";
import { requestOk, type HttpTransport } from "./http-transport.js";
import type { PolicyServing, ServedVersion } from "./policy-serving.js";

const GGUF_ADAPTER = /(\.lora)?\.gguf$/i;

/** Where a GGUF adapter's PEFT form goes: beside it, `policy-v3.lora.gguf` → `policy-v3.peft`. */
function peftFolderFor(ggufPath: string): string {
  return ggufPath.replace(GGUF_ADAPTER, ".peft");
}

/** The folder vLLM is sent: a GGUF adapter's PEFT folder, or `loraPath` itself when it is already a PEFT folder. */
function servedAdapterPath(loraPath: string): string {
  return resolve(GGUF_ADAPTER.test(loraPath) ? peftFolderFor(loraPath) : loraPath);
}

/**
 * vLLM loads LoRA adapters while it runs (`/v1/load_lora_adapter`, with
 * `VLLM_ALLOW_RUNTIME_LORA_UPDATING=True` and `--enable-lora`); a request names
 * the adapter as its model. vLLM reads adapters in Hugging Face PEFT form (a
 * folder), so a `.gguf` adapter, as selfplay's trainers write them, is first
 * written as a PEFT folder beside it (`writePeftAdapter` over `baseModelPath`,
 * the GGUF the adapter was trained on) and that folder's absolute path is sent;
 * any other `loraPath` is taken to be a PEFT folder and sent as it is. vLLM
 * reads the path on its own machine: the folder must be on a file system the
 * servers share. A full-model update needs vLLM's own weight-sync RPC, which an
 * HTTP client cannot drive: train a LoRA for a vLLM fleet.
 */
export function vllmAdapterServing(transport: HttpTransport, baseModel: string, baseModelPath: string): PolicyServing {
  return {
    async prepare(update) {
      if (update.loraPath === undefined || update.modelPath !== undefined) {
        throw new ServerCapabilityError(
          "a vLLM fleet takes new weights as LoRA adapters only (its HTTP server cannot reload a full model): train with weights \"lora\"",
        );
      }
      if (GGUF_ADAPTER.test(update.loraPath)) {
        await writePeftAdapter({ adapterPath: update.loraPath, baseModelPath, out: peftFolderFor(update.loraPath), baseModelNameOrPath: baseModel });
      }
      return { version: update.policyVersion, model: `${baseModel}-selfplay-v${update.policyVersion}` };
    },
    async load(url: string, version: ServedVersion, update: WeightUpdate) {
      try {
        await requestOk(url, "/v1/load_lora_adapter", transport, {
          method: "POST",
          // vLLM answers with a line of text ("Success: LoRA adapter … added successfully."), not JSON.
          body: { lora_name: version.model, lora_path: servedAdapterPath(update.loraPath as string) },
        });
      } catch (error) {
        // Loading one already loaded (an endpoint brought up to date twice) is no failure.
        if (error instanceof EndpointRequestError && error.status === 400 && /already/i.test(error.message)) return;
        if (error instanceof EndpointRequestError && error.status === 404) {
          throw new ServerCapabilityError(`${url} has no /v1/load_lora_adapter: start vLLM with --enable-lora and VLLM_ALLOW_RUNTIME_LORA_UPDATING=True`);
        }
        throw error;
      }
    },
    async unload(url, version) {
      await requestOk(url, "/v1/unload_lora_adapter", transport, { method: "POST", body: { lora_name: version.model } });
    },
  };
}
