import type { WeightUpdate } from "../../core/inference-client.js";

/** One policy version as the servers know it: the model name requests route by. */
export interface ServedVersion {
  version: number;
  model: string;
}

/**
 * How new weights reach one kind of server. A fleet loads a version on every
 * live endpoint before requests name it, and unloads a version once no
 * request of it is in flight.
 */
export interface PolicyServing {
  /** The name requests for `update`'s version carry, after `prepare`. */
  prepare(update: WeightUpdate): Promise<ServedVersion>;
  /** Makes `version` servable on one endpoint; resolves once it can answer. */
  load(url: string, version: ServedVersion, update: WeightUpdate): Promise<void>;
  /** Frees a retired version on one endpoint (best effort: an endpoint that is down drops it anyway). */
  unload(url: string, version: ServedVersion): Promise<void>;
  /** Forgets a retired version's files or entries (after every endpoint unloaded it). */
  retire?(version: ServedVersion): Promise<void>;
}
