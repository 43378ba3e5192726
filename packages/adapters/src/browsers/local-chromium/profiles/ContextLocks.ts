/**
 * Who holds the local provider's contexts, by `<projectId>/<contextId>`: a session that saves to a
 * context, or a delete, holds it alone; copies of its profile (for sessions that do not save back)
 * may be made side by side, but never while it is held alone. All checks are synchronous, so two
 * callers never both win.
 */
export class ContextLocks {
  private readonly exclusive = new Set<string>();
  private readonly copying = new Map<string, number>();

  /** Whether `takeExclusive` (`exclusive`) or `takeForCopy` would succeed now; takes nothing. */
  canTake(key: string, exclusive: boolean): boolean {
    return !this.exclusive.has(key) && !(exclusive && this.copying.has(key));
  }

  /** Takes the context for a session that saves to it, or to delete it; false while held in any way. */
  takeExclusive(key: string): boolean {
    if (this.exclusive.has(key) || this.copying.has(key)) return false;
    this.exclusive.add(key);
    return true;
  }

  releaseExclusive(key: string): void {
    this.exclusive.delete(key);
  }

  /** Takes the context to copy its profile; false while a session saves to it or it is being deleted. */
  takeForCopy(key: string): boolean {
    if (this.exclusive.has(key)) return false;
    this.copying.set(key, (this.copying.get(key) ?? 0) + 1);
    return true;
  }

  releaseCopy(key: string): void {
    const left = (this.copying.get(key) ?? 1) - 1;
    if (left > 0) this.copying.set(key, left);
    else this.copying.delete(key);
  }
}

/** A context named within its project (the same id in two projects is two contexts). */
export function contextKey(projectId: string, contextId: string): string {
  return `${projectId}/${contextId}`;
}
