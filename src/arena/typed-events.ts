/** A minimal typed event emitter: `events` maps each event name to its payload. */
export class TypedEvents<Events extends Record<string, unknown>> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  on<Name extends keyof Events>(name: Name, listener: (payload: Events[Name]) => void): () => void {
    const set = this.listeners.get(name) ?? new Set();
    set.add(listener as (payload: never) => void);
    this.listeners.set(name, set);
    return () => set.delete(listener as (payload: never) => void);
  }

  protected emit<Name extends keyof Events>(name: Name, payload: Events[Name]): void {
    for (const listener of this.listeners.get(name) ?? []) (listener as (payload: Events[Name]) => void)(payload);
  }
}
