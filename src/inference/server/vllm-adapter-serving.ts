import { resolve } from "node:path";
import type { WeightUpdate } from "../../core/inference-client.js";
import { EndpointRequestError, ServerCapabilityError } from "../errors/index.js";
import { requestOk, type HttpTransport } from "./http-transport.js";
import type { PolicyServing, ServedVersion } from "./policy-serving.js";

/**
 * vLLM loads LoRA adapters while it runs (`/v1/load_lora_adapter`, with
 * `VLLM_ALLOW_RUNTIME_LORA_UPDATING=True` and `--enable-lora`); a request names
 * the adapter as its model. A full-model update needs vLLM's own weight-sync
 * RPC, which an HTTP client cannot drive: train a LoRA for a vLLM fleet.
 */
export function vllmAdapterServing(transport: HttpTransport, baseModel: string): PolicyServing {
  return {
    async prepare(update) {
      if (update.loraPath === undefined || update.modelPath !== undefined) {
        throw new ServerCapabilityError(
          "a vLLM fleet takes new weights as LoRA adapters only (its HTTP server cannot reload a full model): train with weights \"lora\"",
        );
      }
      return { version: update.policyVersion, model: `${baseModel}-selfplay-v${update.policyVersion}` };
    },
    async load(url: string, version: ServedVersion, update: WeightUpdate) {
      try {
        await requestOk(url, "/v1/load_lora_adapter", transport, {
          method: "POST",
          // vLLM answers with a line of text ("Success: LoRA adapter … added successfully."), not JSON.
          body: { lora_name: version.model, lora_path: resolve(update.loraPath as string) },
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
