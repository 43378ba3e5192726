import type { GridClient, GridSession } from './GridClient.ts';
import { NewSessionDeadlineError } from './NewSessionDeadlineError.ts';
import { toGridProviderError } from './toGridProviderError.ts';

/** The longest a new-session request is left running at the Grid after our deadline (it is deleted if it lands). */
const NEW_SESSION_HARD_CAP_MS = 10 * 60_000;

/**
 * A new WebDriver session within `deadlineMs`; one the Grid places after it (it may still place a
 * request it queued, which nobody would hold) is deleted in the background (`track`). Failures are
 * `ProviderError`s.
 */
export async function newGridSession(
  grid: Pick<GridClient, 'newSession' | 'deleteSession'>,
  capabilities: Record<string, unknown>,
  options: { deadlineMs: number; track: (work: Promise<unknown>) => void; now: () => Date },
): Promise<GridSession> {
  const ms = options.deadlineMs;
  const pending = grid.newSession(capabilities, Math.max(ms, NEW_SESSION_HARD_CAP_MS));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NewSessionDeadlineError(ms)), ms);
  });
  try {
    return await Promise.race([pending, deadline]);
  } catch (error) {
    if (error instanceof NewSessionDeadlineError) {
      options.track(pending.then((late) => grid.deleteSession(late.sessionId)).catch(() => false));
    }
    throw toGridProviderError(error, { operation: 'create a session', now: options.now() });
  } finally {
    clearTimeout(timer);
  }
}
