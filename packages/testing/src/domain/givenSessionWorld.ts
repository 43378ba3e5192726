import type { BrowserSession, SessionRequest } from '@browserdeck/domain';
import { AuditTrail, asUser, CreateSession, directTransactions, Project, User } from '@browserdeck/domain';
import { FakeBrowserProvider } from './FakeBrowserProvider.ts';
import { InMemoryAgentRepository } from './InMemoryAgentRepository.ts';
import { InMemoryAuditLog } from './InMemoryAuditLog.ts';
import { InMemoryIdempotencyStore } from './InMemoryIdempotencyStore.ts';
import { InMemoryInvitationRepository } from './InMemoryInvitationRepository.ts';
import { InMemoryMemberRepository } from './InMemoryMemberRepository.ts';
import { InMemoryProjectRepository } from './InMemoryProjectRepository.ts';
import { InMemoryRunChanges } from './InMemoryRunChanges.ts';
import { InMemoryRunLogStore } from './InMemoryRunLogStore.ts';
import { InMemoryRunQueue } from './InMemoryRunQueue.ts';
import { InMemoryRunRepository } from './InMemoryRunRepository.ts';
import { InMemorySessionRepository } from './InMemorySessionRepository.ts';
import { InMemoryUserRepository } from './InMemoryUserRepository.ts';
import { ManualClock } from './ManualClock.ts';
import { SequentialIdGenerator } from './SequentialIdGenerator.ts';

/**
 * The in-memory world session use-case tests start from: a clock at 2026-03-01T12:00Z, every store
 * (users, members, invitations and the audit log, runs, their logs, queue and changes too), `audit`
 * over them (`directTransactions`), a fake provider, one active project owned by the user `ownerId`
 * (`addProject` adds more), and `startSession` to create sessions through the real `CreateSession`.
 * With `instanceId`, the fake provider stands for one instance of a provider whose browsers live in
 * one process (see `givenTwoInstances`).
 */
export async function givenSessionWorld(options: { instanceId?: string } = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIdGenerator();
  const users = new InMemoryUserRepository();
  const projects = new InMemoryProjectRepository({ users });
  const members = new InMemoryMemberRepository({ projects });
  const invitations = new InMemoryInvitationRepository({ projects });
  const auditLog = new InMemoryAuditLog();
  const transactions = directTransactions;
  const audit = new AuditTrail({ auditLog, transactions, ids, clock });
  const sessions = new InMemorySessionRepository();
  const agents = new InMemoryAgentRepository();
  const idempotency = new InMemoryIdempotencyStore();
  const provider = new FakeBrowserProvider({ clock, ...options });
  const runs = new InMemoryRunRepository();
  const runLogs = new InMemoryRunLogStore();
  const runQueue = new InMemoryRunQueue();
  const runChanges = new InMemoryRunChanges();
  const ownerId = 'owner-1';
  /** The owner as the caller of use cases. */
  const owner = asUser(ownerId);
  await users.ensure(User.create({ id: ownerId, email: `${ownerId}@example.com`, createdAt: clock.now() }));
  const project = Project.create({ id: ids.next(), ownerId, name: 'Main', slug: 'main', now: clock.now() });
  await projects.add(project);
  const createSession = new CreateSession({
    projects,
    agents,
    sessions,
    provider,
    idempotency,
    audit,
    ids,
    clock,
  });
  const startSession = async (
    request: SessionRequest = {},
    projectId = project.id,
  ): Promise<BrowserSession> => (await createSession.execute({ caller: owner, projectId, request })).session;
  /** Another active project of the same owner. */
  const addProject = async (name: string, slug: string): Promise<Project> => {
    const added = Project.create({ id: ids.next(), ownerId, name, slug, now: clock.now() });
    await projects.add(added);
    return added;
  };
  return {
    clock,
    ids,
    users,
    projects,
    members,
    invitations,
    auditLog,
    transactions,
    audit,
    sessions,
    agents,
    idempotency,
    provider,
    runs,
    runLogs,
    runQueue,
    runChanges,
    ownerId,
    owner,
    project,
    createSession,
    startSession,
    addProject,
  };
}
