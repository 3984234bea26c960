import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../../core/write-file-atomic.js";
import { EndpointRequestError, ServerCapabilityError } from "../errors/index.js";
import { requestJson, type HttpTransport } from "./http-transport.js";
import type { PolicyServing } from "./policy-serving.js";

const POLL_MILLISECONDS = 100;

const ModelsSchema = z.object({
  data: z.array(z.object({ id: z.string(), status: z.object({ value: z.string(), failed: z.boolean().optional(), exit_code: z.number().optional() }).optional() })),
});

/**
 * llama-server cannot load a new adapter file into a running model
 * (`/lora-adapters` only rescales the adapters it started with). Its router
 * mode can: started with `--models-preset FILE`, it runs one child server per
 * preset and loads presets on request. selfplay adds a section per policy
 * version to that file (the base preset's settings, with the new `lora` or
 * `model`), asks every router to reload the list and load the new preset,
 * and sends requests with the version's preset name as their model.
 */
export function llamaServerRouterServing(transport: HttpTransport, presetFile: string, basePreset: string, swapTimeoutMilliseconds: number): PolicyServing {
  // One writer at a time: two swaps must not interleave their read-modify-write of the file.
  let writing: Promise<unknown> = Promise.resolve();
  const edit = (change: (sections: PresetSection[]) => PresetSection[]) => {
    const next = writing.then(async () => {
      const sections = parsePreset(await readPresetFile(presetFile));
      await writeFileAtomic(presetFile, formatPreset(change(sections)));
    });
    writing = next.catch(() => undefined);
    return next;
  };

  return {
    async prepare(update) {
      const model = `${basePreset}-selfplay-v${update.policyVersion}`;
      await edit((sections) => {
        const base = sections.find((section) => section.name === basePreset);
        if (base === undefined) {
          throw new ServerCapabilityError(`${presetFile} has no [${basePreset}] section: the base preset (the model option) must be one of the file's sections, with model = the base GGUF`);
        }
        const entries = base.entries.filter(([key]) => key !== "lora" && !(update.modelPath !== undefined && key === "model"));
        if (update.modelPath !== undefined) entries.push(["model", resolve(update.modelPath)]);
        if (update.loraPath !== undefined) entries.push(["lora", resolve(update.loraPath)]);
        return [...sections.filter((section) => section.name !== model), { name: model, entries }];
      });
      return { version: update.policyVersion, model };
    },
    async load(url, version) {
      await requestJson(url, "/models?reload=1", transport, { method: "GET" });
      try {
        await requestJson(url, "/models/load", transport, { method: "POST", body: { model: version.model } });
      } catch (error) {
        const alreadyRunning = error instanceof EndpointRequestError && error.status === 400 && /already running/.test(error.message);
        if (error instanceof EndpointRequestError && error.status === 404 && !/model is not found/.test(error.message)) {
          throw new ServerCapabilityError(`${url} is not a llama-server router: start it without a model and with --models-preset ${presetFile}`);
        }
        if (!alreadyRunning) throw error;
      }
      const deadline = Date.now() + swapTimeoutMilliseconds;
      for (;;) {
        const models = ModelsSchema.parse(await requestJson(url, "/models", transport, { method: "GET" }));
        const status = models.data.find((entry) => entry.id === version.model)?.status;
        if (status?.value === "loaded") return;
        if (status?.failed === true) throw new EndpointRequestError(url, `the router could not load preset ${version.model} (exit code ${status.exit_code ?? "?"}); see the server's log`, false);
        if (Date.now() > deadline) throw new EndpointRequestError(url, `preset ${version.model} was not loaded within ${swapTimeoutMilliseconds / 1000} s`, true);
        await new Promise((wake) => setTimeout(wake, POLL_MILLISECONDS));
      }
    },
    async unload(url, version) {
      await requestJson(url, "/models/unload", transport, { method: "POST", body: { model: version.model } });
    },
    async retire(version) {
      await edit((sections) => sections.filter((section) => section.name !== version.model));
    },
  };
}

interface PresetSection {
  /** Empty for the lines before the first section header. */
  name: string;
  entries: Array<[string, string]>;
}

async function readPresetFile(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new ServerCapabilityError(`cannot read the preset file ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}): presetFile must be the router's --models-preset file, readable and writable here`);
  }
}

/**
 * llama.cpp's preset format: `[name]` headers, `key = value` lines, `;` or `#`
 * comments. Read by hand rather than with an INI library: the `ini` package
 * nests sections at dots (`[qwen2.5-0.5b]` would become two levels), which
 * llama.cpp does not. Comments are not kept in the rewritten file.
 */
function parsePreset(text: string): PresetSection[] {
  const sections: PresetSection[] = [{ name: "", entries: [] }];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith(";") || line.startsWith("#")) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header !== null) {
      sections.push({ name: (header[1] as string).trim(), entries: [] });
      continue;
    }
    const equals = line.indexOf("=");
    if (equals < 0) continue;
    (sections.at(-1) as PresetSection).entries.push([line.slice(0, equals).trim(), line.slice(equals + 1).trim()]);
  }
  return sections;
}

function formatPreset(sections: readonly PresetSection[]): string {
  return sections
    .filter((section) => section.name !== "" || section.entries.length > 0)
    .map((section) => [...(section.name === "" ? [] : [`[${section.name}]`]), ...section.entries.map(([key, value]) => `${key} = ${value}`)].join("\n"))
    .join("\n\n")
    .concat("\n");
}
