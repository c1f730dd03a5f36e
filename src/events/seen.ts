/**
 * The ids of the deliveries handled lately, so that a retry is answered without being shown
 * again. Bounded: past `capacity` the oldest are forgotten (a sender retries for minutes or
 * hours, not for ten thousand deliveries).
 */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(readonly capacity = 10_000) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }

  get size(): number {
    return this.ids.size;
  }
}
