import type { GenerationRequest } from "../../src/core/inference-client.js";
import { ScriptedInferenceClient } from "../../src/inference/scripted-inference-client.js";

/**
 * A scripted client that answers every addition in the last message right and every subtraction wrong ("0"): the
 * `add*` clusters always solved, the `subtract*` ones never.
 */
export const addsOnly = new ScriptedInferenceClient({
  rules: [
    {
      when: () => true,
      reply: (request: GenerationRequest) => {
        const [a, operation, b] = (request.messages.at(-1)?.content ?? "").match(/(\d+)([+-])(\d+)/)!.slice(1) as [string, string, string];
        return operation === "+" ? String(Number(a) + Number(b)) : "0";
      },
    },
  ],
});
