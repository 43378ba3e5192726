import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { Clock } from '../shared/Clock.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import type { SessionRepository } from './SessionRepository.ts';

export interface EndLostInstanceSessionsDeps {
  sessions: SessionRepository;
  provider: BrowserProvider;
  clock: Clock;
  logger?: Logger | undefined;
}

/** Sessions ended per batch. */
const BATCH = 100;

/**
 * Ends, as `ERROR`, every active session whose browser an instance that is gone held
 * (`BrowserSession.providerInstanceId`): its browser went with it, so the session neither completed
 * nor timed out. Each is stored with a status-only write (`updateStatus`, which never overwrites a
 * terminal status another writer stored first), then released at the provider, best effort: a
 * provider every instance reaches (a Selenium Grid) still holds the browser and frees it there; one
 * whose browsers lived in the lost process knows nothing of it. Called by a surviving instance for
 * another one that stopped answering, and by a restarted instance for its own id. Returns how many
 * sessions it ended.
 */
export class EndLostInstanceSessions {
  private readonly deps: EndLostInstanceSessionsDeps;

  constructor(deps: EndLostInstanceSessionsDeps) {
    this.deps = deps;
  }

  async execute(input: { instanceId: string }): Promise<number> {
    let ended = 0;
    for (;;) {
      const batch = await this.deps.sessions.listActiveHeldBy(input.instanceId, BATCH);
      for (const session of batch) {
        session.end('ERROR', this.deps.clock.now());
        await this.deps.sessions.updateStatus(session);
        ended++;
        await this.deps.provider.sessions
          .release(session.providerSessionId, session.providerProjectId)
          .catch((error: unknown) =>
            this.logger.warn(
              { sessionId: session.id, instanceId: input.instanceId, error: String(error) },
              'could not release a lost instance’s session at the provider',
            ),
          );
      }
      if (batch.length < BATCH) return ended;
    }
  }

  private get logger(): Logger {
    return this.deps.logger ?? silentLogger;
  }
}
