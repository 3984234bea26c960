import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { AddonBinding, AddonModel } from "./AddonTypes.js";

/** A loaded model held by one engine; `release` once the engine is done with it. */
export interface NativeModelLease {
  model: AddonModel;
  release(): Promise<void>;
}

interface SharedModel {
  model: Promise<AddonModel>;
  users: number;
}

const sharedModels = new Map<string, SharedModel>();

/**
 * Engines over the same model file share one loaded model (the LoRA versions
 * over a base, several clients). A file is known by its path, size and
 * modification time, so a model rewritten in place is loaded afresh.
 */
export async function leaseNativeModel(binding: AddonBinding, modelPath: string, device: string): Promise<NativeModelLease> {
  const path = resolve(modelPath);
  const { size, mtimeMs } = await stat(path);
  const key = JSON.stringify([path, size, mtimeMs, device]);
  let shared = sharedModels.get(key);
  if (!shared) {
    // Every layer on ggml's device `device` ("CPU", "Vulkan0" …).
    const loading: SharedModel = { model: binding.loadModel({ path, device }), users: 0 };
    loading.model.catch(() => {
      if (sharedModels.get(key) === loading) sharedModels.delete(key);
    });
    sharedModels.set(key, loading);
    shared = loading;
  }
  const holder = shared;
  holder.users++;
  let model: AddonModel;
  try {
    model = await holder.model;
  } catch (error) {
    holder.users--;
    throw error;
  }
  let released = false;
  return {
    model,
    release: async () => {
      if (released) return;
      released = true;
      holder.users--;
      if (holder.users > 0) return;
      if (sharedModels.get(key) === holder) sharedModels.delete(key);
      await model.dispose();
    },
  };
}
