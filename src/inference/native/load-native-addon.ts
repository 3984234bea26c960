import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Llama } from "node-llama-cpp";
import type { Device } from "../device/device-option.js";
import { loadLlama } from "../llama/load-llama.js";
import type { AddonBinding } from "./AddonTypes.js";
import { packageRoot } from "../../core/package-root.js";

/** Where node-gyp puts the addon, relative to the package root. */
const ADDON_FILE = join("build", "Release", "selfplay_native.node");

/** The addon, ready to use, or why it cannot be. */
export type NativeAddonLoad = { binding: AddonBinding; libraryPath: string; reason?: undefined } | { binding: undefined; reason: string };

const loads = new Map<Llama, Promise<NativeAddonLoad>>();

/**
 * The one loader of the native addon. It first loads node-llama-cpp's binding
 * (the build `device` needs: loadLlama), then points the addon at the libllama
 * that binding loaded, after checking that it is the llama.cpp release the addon
 * was compiled against. A missing or unusable addon comes back as a reason; only
 * a device request the process cannot serve throws (DeviceBuildConflictError).
 */
export async function loadNativeAddon(device: Device): Promise<NativeAddonLoad> {
  const llama = await loadLlama(device);
  let load = loads.get(llama);
  if (!load) {
    load = bindAddon(llama).catch((error: unknown) => ({ binding: undefined, reason: messageOf(error) }));
    loads.set(llama, load);
  }
  return load;
}

async function bindAddon(llama: Llama): Promise<NativeAddonLoad> {
  const addonPath = findAddonFile();
  if (addonPath === undefined) return { binding: undefined, reason: `${ADDON_FILE} was not built` };
  let binding: AddonBinding;
  try {
    binding = createRequire(import.meta.url)(addonPath) as AddonBinding;
  } catch (error) {
    return { binding: undefined, reason: `${addonPath} failed to load (${messageOf(error)})` };
  }
  const libraries = binding.findLoadedLlamaLibraries().map((path) => ({ path, build: readBuildMetadata(path) }));
  if (libraries.length === 0) return { binding: undefined, reason: "node-llama-cpp's libllama is not loaded in this process" };
  // The headers the addon was compiled with describe this release's struct layouts only.
  const matching = libraries.filter((library) => library.build?.release === binding.llamaCppRelease);
  const chosen = matching.find((library) => library.build?.gpu === llama.gpu) ?? matching[0];
  if (chosen === undefined) {
    const loaded = libraries.map((library) => `${library.path} (${library.build?.release ?? "unknown release"})`).join(", ");
    return { binding: undefined, reason: `the addon was built against llama.cpp ${binding.llamaCppRelease}, but node-llama-cpp loaded ${loaded}` };
  }
  try {
    binding.bindLlamaLibrary(chosen.path);
  } catch (error) {
    return { binding: undefined, reason: messageOf(error) };
  }
  // Which libllama the addon runs on: benchmarks compare against llama.cpp's own tools linked to the same one.
  return { binding, libraryPath: chosen.path };
}

/** The addon under the package root: the nearest folder above this module with a package.json (src/ and dist/src/ alike). */
function findAddonFile(): string | undefined {
  const candidate = join(packageRoot(import.meta.url), ADDON_FILE);
  return existsSync(candidate) ? candidate : undefined;
}

/** node-llama-cpp writes what each binary folder was built from beside the libraries. */
function readBuildMetadata(libraryPath: string): { release?: string; gpu?: string | false } | undefined {
  try {
    const metadata = JSON.parse(readFileSync(join(dirname(libraryPath), "_nlcBuildMetadata.json"), "utf8")) as {
      buildOptions?: { gpu?: string | false; llamaCpp?: { release?: string } };
    };
    return { release: metadata.buildOptions?.llamaCpp?.release, gpu: metadata.buildOptions?.gpu };
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
