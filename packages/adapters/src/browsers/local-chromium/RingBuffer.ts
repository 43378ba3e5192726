/** A bounded FIFO: once full, each push drops the oldest item. */
export class RingBuffer<T> {
  readonly capacity: number;
  private readonly items: (T | undefined)[];
  private start = 0;
  private count = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
    this.capacity = capacity;
    this.items = new Array<T | undefined>(capacity);
  }

  /** How many items it holds. */
  get size(): number {
    return this.count;
  }

  /** Adds an item, dropping the oldest when full. */
  push(item: T): void {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item;
      this.count++;
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
  }

  /** The items, oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.capacity] as T);
    return out;
  }

  /** Empties it. */
  clear(): void {
    this.items.fill(undefined);
    this.start = 0;
    this.count = 0;
  }
}
