import type { BrowserdeckStorage } from '@browserdeck/adapters';
import { type Clock, directTransactions, FixedWindowRateLimiter } from '@browserdeck/domain';
import {
  InMemoryAgentRepository,
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryExtensionRepository,
  InMemoryIdempotencyStore,
  InMemoryInvitationRepository,
  InMemoryMemberRepository,
  InMemoryProjectRepository,
  InMemoryRunLogStore,
  InMemoryRunRepository,
  InMemorySessionRepository,
  InMemoryUsageRepository,
  InMemoryUserRepository,
} from '@browserdeck/testing';

/** The in-memory storage `inMemoryStorage` builds: the repositories by their concrete types. */
export interface InMemoryStorage extends BrowserdeckStorage {
  users: InMemoryUserRepository;
  projects: InMemoryProjectRepository;
  members: InMemoryMemberRepository;
  invitations: InMemoryInvitationRepository;
  auditLog: InMemoryAuditLog;
  usage: InMemoryUsageRepository;
  sessions: InMemorySessionRepository;
  agents: InMemoryAgentRepository;
  apiKeys: InMemoryApiKeyRepository;
  extensions: InMemoryExtensionRepository;
  idempotency: InMemoryIdempotencyStore;
  runs: InMemoryRunRepository;
  runLogs: InMemoryRunLogStore;
}

/**
 * `createBrowserdeck`'s `database.storage` over the domain's in-memory ports: empty repositories
 * (projects, their members and invitations on one set of users, usage summed from the sessions and
 * runs), work run as it comes (`directTransactions`), a rate limiter on `clock`, and a database that
 * is always ready.
 */
export function inMemoryStorage(clock: Clock): InMemoryStorage {
  const users = new InMemoryUserRepository();
  const projects = new InMemoryProjectRepository({ users });
  const sessions = new InMemorySessionRepository();
  const runs = new InMemoryRunRepository();
  return {
    users,
    projects,
    members: new InMemoryMemberRepository({ projects }),
    invitations: new InMemoryInvitationRepository({ projects }),
    auditLog: new InMemoryAuditLog(),
    usage: new InMemoryUsageRepository({ projects, sessions, runs }),
    transactions: directTransactions,
    sessions,
    agents: new InMemoryAgentRepository(),
    apiKeys: new InMemoryApiKeyRepository(),
    extensions: new InMemoryExtensionRepository(),
    idempotency: new InMemoryIdempotencyStore(),
    runs,
    runLogs: new InMemoryRunLogStore(),
    rateLimiter: new FixedWindowRateLimiter({ clock }),
    database: { checkReadiness: async () => {} },
  };
}
