import type { BrowserdeckStorage } from '@browserdeck/adapters';
import { type Clock, FixedWindowRateLimiter } from '@browserdeck/domain';
import {
  InMemoryAgentRepository,
  InMemoryApiKeyRepository,
  InMemoryExtensionRepository,
  InMemoryIdempotencyStore,
  InMemoryProjectRepository,
  InMemoryRunLogStore,
  InMemoryRunRepository,
  InMemorySessionRepository,
  InMemoryUserRepository,
} from '@browserdeck/testing';

/** The in-memory storage `inMemoryStorage` builds: the repositories by their concrete types. */
export interface InMemoryStorage extends BrowserdeckStorage {
  users: InMemoryUserRepository;
  projects: InMemoryProjectRepository;
  sessions: InMemorySessionRepository;
  agents: InMemoryAgentRepository;
  apiKeys: InMemoryApiKeyRepository;
  extensions: InMemoryExtensionRepository;
  idempotency: InMemoryIdempotencyStore;
  runs: InMemoryRunRepository;
  runLogs: InMemoryRunLogStore;
}

/**
 * `createBrowserdeck`'s `database.storage` over the domain's in-memory ports: empty repositories, a
 * rate limiter on `clock`, and a database that is always ready.
 */
export function inMemoryStorage(clock: Clock): InMemoryStorage {
  return {
    users: new InMemoryUserRepository(),
    projects: new InMemoryProjectRepository(),
    sessions: new InMemorySessionRepository(),
    agents: new InMemoryAgentRepository(),
    apiKeys: new InMemoryApiKeyRepository(),
    extensions: new InMemoryExtensionRepository(),
    idempotency: new InMemoryIdempotencyStore(),
    runs: new InMemoryRunRepository(),
    runLogs: new InMemoryRunLogStore(),
    rateLimiter: new FixedWindowRateLimiter({ clock }),
    database: { checkReadiness: async () => {} },
  };
}
