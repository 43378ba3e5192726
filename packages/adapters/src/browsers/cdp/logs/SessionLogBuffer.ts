import type { SessionLogEntry } from '@browserdeck/domain';
import { capLogEntry } from './capLogEntry.ts';

/** The log `method` of the one entry that says how many older entries the budget dropped. */
export const LOGS_DROPPED_METHOD = 'Browserdeck.logsDropped';

/** How a session's logs are bounded. */
export interface SessionLogLimits {
  /** Largest entry, as JSON bytes (longer values are cut, `capLogEntry`). */
  readonly maxEntryBytes: number;
  /** The session's budget, as JSON bytes: past it the oldest entries go first. */
  readonly maxBytes: number;
}

/** A session's logs as kept: the entries, oldest first, and their size as JSON bytes. */
export interface BoundedLogs {
  readonly entries: SessionLogEntry[];
  readonly bytes: number;
}

/**
 * A session's log entries within a byte budget (http-api.md §5): each entry is cut to
 * `maxEntryBytes`, and once the entries add up to more than `maxBytes` the oldest go first. What was
 * dropped is counted, and `entries()` starts with one `Browserdeck.logsDropped` entry saying so.
 */
export class SessionLogBuffer {
  private readonly limits: SessionLogLimits;
  private items: SessionLogEntry[] = [];
  private sizes: number[] = [];
  /** Index of the oldest kept item (items before it are dropped, compacted now and then). */
  private head = 0;
  private total = 0;
  private droppedEntries = 0;
  private droppedBytes = 0;
  private lastDropAt = 0;

  constructor(limits: SessionLogLimits) {
    if (!(limits.maxEntryBytes > 0 && limits.maxBytes >= limits.maxEntryBytes))
      throw new RangeError('maxBytes must be at least maxEntryBytes, which must be positive');
    this.limits = limits;
  }

  /** JSON bytes of the entries kept. */
  get bytes(): number {
    return this.total;
  }

  /** Adds an entry (cut to size), dropping the oldest ones while over budget. */
  push(entry: SessionLogEntry): void {
    const capped = capLogEntry(entry, this.limits.maxEntryBytes);
    this.items.push(capped.entry);
    this.sizes.push(capped.bytes);
    this.total += capped.bytes;
    while (this.total > this.limits.maxBytes) {
      this.total -= this.sizes[this.head] as number;
      this.droppedBytes += this.sizes[this.head] as number;
      this.droppedEntries++;
      this.lastDropAt = entry.timestamp;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }

  /** The kept entries, oldest first, after one entry counting the dropped ones when there are any. */
  entries(): SessionLogEntry[] {
    const kept = this.items.slice(this.head);
    if (this.droppedEntries === 0) return kept;
    const params = {
      droppedEntries: this.droppedEntries,
      droppedBytes: this.droppedBytes,
      budgetBytes: this.limits.maxBytes,
      message: `${this.droppedEntries} older log entries were dropped: the session's logs keep at most ${this.limits.maxBytes} bytes`,
    };
    const timestamp = this.lastDropAt;
    return [{ timestamp, method: LOGS_DROPPED_METHOD, pageId: -1, request: { timestamp, params } }, ...kept];
  }

  /** The kept entries and their size, for the archive of ended sessions. */
  snapshot(): BoundedLogs {
    return { entries: this.entries(), bytes: this.total };
  }

  /** Forgets everything (a warm browser handed to a new session starts empty). */
  clear(): void {
    this.items = [];
    this.sizes = [];
    this.head = 0;
    this.total = 0;
    this.droppedEntries = 0;
    this.droppedBytes = 0;
    this.lastDropAt = 0;
  }
}
