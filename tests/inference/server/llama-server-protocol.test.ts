import { describe, expect, it } from "vitest";
import { llamaServerProtocol } from "../../../src/inference/server/llama-server-protocol.js";

const sampler = { temperature: 0.7, topK: 0, topP: 1, minP: 0, seed: 9, maxTokens: 16, stop: ["\n"] };

describe("llamaServerProtocol", () => {
  it("asks for the chain the Step records and the probabilities after it, with token ids back", () => {
    const body = llamaServerProtocol.completionBody({ model: "m", promptTokenIds: [1, 2], maxTokens: 5, sampler });
    expect(body).toMatchObject({
      model: "m",
      prompt: [1, 2],
      n_predict: 5,
      temperature: 0.7,
      top_k: 0,
      top_p: 1,
      min_p: 0,
      seed: 9,
      samplers: ["top_k", "top_p", "min_p", "temperature"],
      n_probs: 1,
      post_sampling_probs: true,
      return_tokens: true,
      stop: ["\n"],
      stream: false,
    });
  });

  it("matches probabilities to tokens by id, leaving a gap where the server withheld one", () => {
    // Token 200 ended an incomplete UTF-8 sequence (no entry); the stop string's last token was trimmed.
    const read = llamaServerProtocol.readCompletion({
      tokens: [65, 200, 201, 10],
      completion_probabilities: [
        { id: 65, prob: 0.5, top_probs: [] },
        { id: 201, prob: 0.25, top_probs: [] },
      ],
      stop_type: "word",
      model: "m",
    });
    expect(read).toEqual({ tokenIds: [65, 200, 201, 10], logprobs: [Math.log(0.5), undefined, Math.log(0.25), undefined], finishReason: "stop", model: "m" });
  });

  it("reads eos and limit as stop and length, and names what is missing from other answers", () => {
    const finish = (stopType: string) => (llamaServerProtocol.readCompletion({ tokens: [], stop_type: stopType, model: "m" }) as { finishReason: string }).finishReason;
    expect([finish("eos"), finish("limit")]).toEqual(["stop", "length"]);
    expect(llamaServerProtocol.readCompletion({ choices: [] })).toMatch(/without tokens, completion_probabilities and stop_type .*is it llama-server\?/);
  });

  it("asks for every candidate's probability at one position, without the grammar, to fill a gap", () => {
    const body = llamaServerProtocol.nextTokenLogprob?.body({ model: "m", promptTokenIds: [1, 2, 3], maxTokens: 5, sampler, grammar: "root ::= [0-9]+" });
    expect(body).toMatchObject({ n_predict: 1, n_probs: 2 ** 31 - 1, stop: [], post_sampling_probs: true, prompt: [1, 2, 3] });
    expect(body).not.toHaveProperty("grammar");
    const answer = { completion_probabilities: [{ id: 7, prob: 0.9, top_probs: [{ id: 7, prob: 0.9 }, { id: 200, prob: 0.05 }] }] };
    expect(llamaServerProtocol.nextTokenLogprob?.read(answer, 200)).toBeCloseTo(Math.log(0.05), 12);
    expect(llamaServerProtocol.nextTokenLogprob?.read(answer, 201)).toBeUndefined();
  });
});
