import type { Piscina } from "piscina";

type LoadBalancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>["loadBalancer"]>;

/**
 * Picks the least busy worker below `episodesPerWorker` tasks. piscina's own
 * balancer runs a task that has an AbortSignal (each episode has one, for its
 * timeout) alone on its worker; episodes mostly wait on model calls, so they
 * share. Killing a worker for one of them fails its neighbours too, and the
 * pool retries those.
 */
export function sharedWorkerBalancer(episodesPerWorker: number): LoadBalancer {
  return (_task, workers) => {
    let chosen: (typeof workers)[number] | null = null;
    let least = episodesPerWorker;
    for (const worker of workers) {
      if (worker.terminating || worker.destroyed) continue;
      // piscina reports a worker with one abortable task as infinitely busy; it runs one task.
      const usage = worker.isRunningAbortableTask ? 1 : worker.currentUsage;
      if (usage < least) {
        chosen = worker;
        least = usage;
      }
    }
    return chosen;
  };
}
