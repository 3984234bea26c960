import { Option, type Command } from "commander";
import { z } from "zod";
import { InvalidInputError } from "../core/errors/index.js";
import { ServerKindSchema, type OpenAICompatibleClientOptions } from "../inference/server/server-client-options.js";

/** The flags of `--client openai`, on `run`, `train` and `eval`. */
export const SERVER_CLIENT_FLAGS = {
  endpoint: z.array(z.url({ protocol: /^https?$/, error: "an http:// or https:// URL, e.g. http://127.0.0.1:8080" })).optional(),
  serverKind: ServerKindSchema.optional(),
  apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "the name of an environment variable, e.g. SELFPLAY_API_KEY").optional(),
  presetFile: z.string().min(1, "the router's --models-preset file").optional(),
  serverModel: z.string().min(1, "the model name the servers route by").optional(),
  caFile: z.string().min(1, "a PEM file of certificate authorities").optional(),
};

type ServerClientFlags = { client?: string | undefined } & { [Key in keyof typeof SERVER_CLIENT_FLAGS]?: z.infer<(typeof SERVER_CLIENT_FLAGS)[Key]> | undefined };

/** Adds `--endpoint` … `--ca-file` to a command (its `--client` flag is its own: the values differ per command). */
export function addServerClientOptions(command: Command): Command {
  return command
    .addOption(new Option("--endpoint <url>", "with --client openai: a server's base URL (llama-server or vLLM); repeat for a fleet").argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]))
    .addOption(new Option("--server-kind <kind>", "with --client openai: llama-server (default) or vllm"))
    .addOption(new Option("--api-key-env <name>", "with --client openai: the environment variable holding the servers' API key"))
    .addOption(new Option("--preset-file <file>", "with --client openai and llama-server routers: the --models-preset file, which selfplay extends with each new policy version"))
    .addOption(new Option("--server-model <name>", "with --client openai: the model name requests carry (vLLM's served name; a router's base preset). Default: what the first endpoint lists"))
    .addOption(new Option("--ca-file <file>", "with --client openai over https: a PEM bundle of certificate authorities to trust"));
}

/**
 * The server client's settings from the flags, or undefined without
 * `--client openai`. Every server flag needs `--client openai`, and it needs
 * `--endpoint`; the API key is read from the variable `--api-key-env` names.
 */
export function serverClientSettings(flags: ServerClientFlags, environment: Readonly<Record<string, string | undefined>>): Omit<OpenAICompatibleClientOptions, "modelPath"> | undefined {
  const given = (Object.keys(SERVER_CLIENT_FLAGS) as Array<keyof typeof SERVER_CLIENT_FLAGS>).filter((key) => flags[key] !== undefined);
  if (flags.client !== "openai") {
    const [first] = given;
    if (first !== undefined) throw new InvalidInputError(`--${kebab(first)}`, "--client openai alongside it (server flags are for a fleet)", flags[first]);
    return undefined;
  }
  if (flags.endpoint === undefined || flags.endpoint.length === 0) {
    throw new InvalidInputError("--endpoint", "at least one server URL with --client openai, e.g. --endpoint http://127.0.0.1:8080");
  }
  let apiKey: string | undefined;
  if (flags.apiKeyEnv !== undefined) {
    apiKey = environment[flags.apiKeyEnv];
    if (apiKey === undefined || apiKey === "") throw new InvalidInputError("--api-key-env", `the name of a variable that is set (${flags.apiKeyEnv} is empty or unset)`, flags.apiKeyEnv);
  }
  return {
    endpoints: flags.endpoint,
    ...(flags.serverKind !== undefined && { serverKind: flags.serverKind }),
    ...(apiKey !== undefined && { apiKey }),
    ...(flags.presetFile !== undefined && { presetFile: flags.presetFile }),
    ...(flags.serverModel !== undefined && { model: flags.serverModel }),
    ...(flags.caFile !== undefined && { tls: { caFile: flags.caFile } }),
  };
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
