import type { RunTicket } from '@browserdeck/domain';

/**
 * The order in which one instance's queue hands out waiting runs, fair across accounts: each
 * account's runs first in first out, at most `maxActivePerOwner` of an account's at once, and the
 * next run from the account with the fewest runs going, ties to the one whose last turn is longest
 * ago (round robin). However many runs one account queued, another's starts at the next free slot.
 */
export class FairRunOrder {
  private readonly maxActivePerOwner: number;
  /** Each account's waiting runs, oldest first. */
  private readonly waiting = new Map<string, string[]>();
  /** Accounts with waiting runs, whose last turn is longest ago first. */
  private readonly turns: string[] = [];
  private readonly owners = new Map<string, string>();
  private readonly active = new Map<string, number>();

  constructor(maxActivePerOwner: number) {
    this.maxActivePerOwner = Math.max(1, maxActivePerOwner);
  }

  /** Runs waiting. */
  get size(): number {
    return this.owners.size;
  }

  has(runId: string): boolean {
    return this.owners.has(runId);
  }

  /** Adds a run at the end of its account's runs (once: a run already waiting stays where it is). */
  push({ runId, ownerId }: RunTicket): void {
    if (this.owners.has(runId)) return;
    this.owners.set(runId, ownerId);
    const runs = this.waiting.get(ownerId);
    if (runs) runs.push(runId);
    else {
      this.waiting.set(ownerId, [runId]);
      this.turns.push(ownerId);
    }
  }

  /** Takes a waiting run out (a cancel); false when it was not waiting. */
  remove(runId: string): boolean {
    const ownerId = this.owners.get(runId);
    if (ownerId === undefined) return false;
    this.owners.delete(runId);
    const runs = this.waiting.get(ownerId) ?? [];
    runs.splice(runs.indexOf(runId), 1);
    if (runs.length === 0) this.dropTurn(ownerId);
    return true;
  }

  /**
   * The next run to start, counted as going for its account until `done`; null when none may start
   * (nothing waits, or every waiting account has its share going).
   */
  take(): RunTicket | null {
    let chosen: string | undefined;
    let fewest = this.maxActivePerOwner;
    for (const ownerId of this.turns) {
      const going = this.active.get(ownerId) ?? 0;
      if (going < fewest) {
        chosen = ownerId;
        fewest = going;
      }
    }
    if (chosen === undefined) return null;
    const runs = this.waiting.get(chosen) as string[];
    const runId = runs.shift() as string;
    this.owners.delete(runId);
    this.dropTurn(chosen);
    if (runs.length > 0) {
      this.waiting.set(chosen, runs);
      this.turns.push(chosen);
    }
    this.active.set(chosen, fewest + 1);
    return { runId, ownerId: chosen };
  }

  /** A run `take` handed out is over: its account's share has room again. */
  done(ownerId: string): void {
    const going = (this.active.get(ownerId) ?? 0) - 1;
    if (going > 0) this.active.set(ownerId, going);
    else this.active.delete(ownerId);
  }

  private dropTurn(ownerId: string): void {
    this.waiting.delete(ownerId);
    const at = this.turns.indexOf(ownerId);
    if (at >= 0) this.turns.splice(at, 1);
  }
}
