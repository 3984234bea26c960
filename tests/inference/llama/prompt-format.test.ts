import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GgufReader } from "../../../src/gguf/gguf-reader.js";
import { writeGguf, type GgufTensorInput } from "../../../src/gguf/write-gguf.js";
import { ChatTemplateError } from "../../../src/inference/errors/index.js";
import { loadLlama } from "../../../src/inference/llama/load-llama.js";
import { promptFormatFor } from "../../../src/inference/llama/prompt-format.js";
import { createRandomModel } from "../../../src/inference/model-files/create-random-model.js";

/** A copy of `modelPath` with `template` as its `tokenizer.chat_template`, loaded for its vocabulary. */
async function withTemplate(modelPath: string, outputPath: string, template: string): Promise<LlamaModel> {
  const reader = await GgufReader.open(modelPath);
  try {
    const tensors: GgufTensorInput[] = [];
    for (const tensor of reader.tensors) tensors.push({ name: tensor.name, dims: tensor.dims, type: tensor.type, bytes: await reader.readTensorBytes(tensor.name) });
    const metadata = new Map(reader.metadata).set("tokenizer.chat_template", { type: "string", value: template });
    await writeGguf(outputPath, { metadata, tensors });
  } finally {
    await reader.close();
  }
  return (await loadLlama("cpu")).loadModel({ modelPath: outputPath, vocabOnly: true });
}

describe("promptFormatFor on a project-made model with a chat template", () => {
  let folder: string;
  let modelPath: string;
  const models: LlamaModel[] = [];

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "selfplay-prompt-format-"));
    modelPath = (await createRandomModel({ path: join(folder, "tiny.gguf"), preset: "tiny", architecture: "llama", seed: 1 })).path;
  });

  afterAll(async () => {
    for (const model of models) await model.dispose();
  });

  it("renders the file's template with the conversation and the generation prompt, and tokenizes the text", async () => {
    const model = await withTemplate(modelPath, join(folder, "rendered.gguf"), "{% for m in messages %}[{{ m.role }}]{{ m.content }};{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}");
    models.push(model);
    const format = promptFormatFor(model);
    expect(format.name).toBe("chat-template");
    expect(format.tokenize([{ role: "system", content: "S" }, { role: "user", content: "2+2" }])).toEqual(model.tokenize("[system]S;[user]2+2;[assistant]"));
  });

  it("refuses a template that does not parse with ChatTemplateError, naming the file and the fix", async () => {
    const model = await withTemplate(modelPath, join(folder, "unparsed.gguf"), "{% for m in messages %}{{ m.content }}");
    models.push(model);
    expect(() => promptFormatFor(model)).toThrow(ChatTemplateError);
    expect(() => promptFormatFor(model)).toThrow(/unparsed\.gguf does not parse .*tokenizer\.chat_template/);
  });

  it("passes a template's raise_exception on as ChatTemplateError with the template's message", async () => {
    const model = await withTemplate(modelPath, join(folder, "refusing.gguf"), "{% if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{{ messages[0].content }}");
    models.push(model);
    const format = promptFormatFor(model);
    expect(format.tokenize([{ role: "user", content: "hi" }])).toEqual(model.tokenize("hi"));
    expect(() => format.tokenize([{ role: "system", content: "S" }])).toThrow(ChatTemplateError);
    expect(() => format.tokenize([{ role: "system", content: "S" }])).toThrow(/refused the conversation \(System role not supported\); give the conversation the roles/);
  });
});
