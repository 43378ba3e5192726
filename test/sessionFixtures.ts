import { randomBytes } from 'node:crypto';
import {
  Agent,
  BrowserSession,
  Project,
  Run,
  type SessionProxy,
  type SessionStatus,
  User,
} from '@browserdeck/domain';
import {
  type BrowserdeckOrm,
  MikroOrmProjectRepository,
  MikroOrmRunRepository,
  MikroOrmUserRepository,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { SecretBox } from '../packages/adapters/src/persistence/secrets/index.ts';

/** The owner of every project the session tests create. */
export const OWNER = '0190f000-0000-7000-8000-00000000000a';

/** A SecretBox with a fresh random key. */
export function newSecretBox(): SecretBox {
  return new SecretBox(randomBytes(32));
}

/** Inserts the owner (once) and project `projectId`, so sessions and agents may reference it. */
export async function givenProject(orm: BrowserdeckOrm, projectId: string): Promise<void> {
  const at = new Date('2026-01-01T00:00:00.000Z');
  await new MikroOrmUserRepository({ orm }).ensure(
    User.create({ id: OWNER, email: 'owner@example.com', createdAt: at }),
  );
  await new MikroOrmProjectRepository({ orm }).add(
    Project.create({ id: projectId, ownerId: OWNER, name: 'P', slug: `p-${projectId.slice(-6)}`, now: at }),
  );
}

/** The project a run of `givenRun` belongs to. */
export const RUN_PROJECT = '0190f0ff-0000-7000-8000-0000000000ff';

/** Inserts run `runId` (QUEUED, in `RUN_PROJECT`, made once), so log lines may reference it. */
export async function givenRun(orm: BrowserdeckOrm, runId: string, secrets: SecretBox): Promise<void> {
  const [found] = await orm.em
    .getConnection()
    .execute<unknown[]>('select id from projects where id = ?', [RUN_PROJECT]);
  if (!found) await givenProject(orm, RUN_PROJECT);
  await new MikroOrmRunRepository({ orm, secrets }).add(makeRun({ id: runId, projectId: RUN_PROJECT }));
}

/** A QUEUED ad-hoc run of `projectId`; everything a test does not care about gets a plain default. */
export function makeRun(props: {
  id: string;
  projectId: string;
  now?: Date;
  agentId?: string | null;
  sessionId?: string | null;
  env?: Record<string, string>;
}): Run {
  return Run.create({
    id: props.id,
    projectId: props.projectId,
    ownerId: OWNER,
    agentId: props.agentId ?? null,
    sessionId: props.sessionId === undefined ? testId(9, 1) : props.sessionId,
    script: 'return await page.title();',
    input: { url: 'https://example.com' },
    env: props.env ?? { RUN_TOKEN: 'tok-run' },
    timeoutSec: 60,
    sessionRequest: null,
    now: props.now ?? new Date('2026-03-04T05:06:07.089Z'),
  });
}

/** A UUID (v7 layout) numbered `n` within `group`, for readable, ordered test ids. */
export function testId(group: number, n: number): string {
  return `0190f${String(group).padStart(3, '0')}-0000-7000-8000-${String(n).padStart(12, '0')}`;
}

/** A session of `projectId`; everything a test does not care about gets a plain default. */
export function makeSession(props: {
  id: string;
  projectId: string;
  now?: Date;
  status?: SessionStatus;
  startedAt?: Date;
  endedAt?: Date | null;
  env?: Record<string, string>;
  agentId?: string | null;
  connectUrl?: string;
  proxies?: readonly SessionProxy[] | null;
}): BrowserSession {
  const now = props.now ?? new Date('2026-03-04T05:06:07.089Z');
  return BrowserSession.create({
    id: props.id,
    projectId: props.projectId,
    provider: 'local',
    now,
    settings: {
      name: `Session ${props.id.slice(-4)}`,
      script: 'console.log(1)',
      env: props.env ?? { API_TOKEN: 'tok-123' },
      region: 'local',
      timeoutSec: 300,
      extensionId: null,
      contextId: 'ctx-1',
      agentId: props.agentId ?? null,
      proxies: props.proxies ?? null,
    },
    snapshot: {
      providerSessionId: `prov-${props.id}`,
      providerProjectId: 'pp-1',
      status: props.status ?? 'RUNNING',
      connectUrl: props.connectUrl ?? `ws://127.0.0.1/s/${props.id}`,
      seleniumRemoteUrl: null,
      startedAt: props.startedAt ?? now,
      endedAt: props.endedAt ?? null,
      expiresAt: new Date(now.getTime() + 300_000),
    },
  });
}

/** An agent of `projectId`. */
export function makeAgent(props: {
  id: string;
  projectId: string;
  name?: string;
  now?: Date;
  active?: boolean;
  envVars?: Record<string, string>;
}): Agent {
  return Agent.create({
    id: props.id,
    projectId: props.projectId,
    now: props.now ?? new Date('2026-03-04T05:06:07.089Z'),
    fields: {
      name: props.name ?? `agent-${props.id.slice(-4)}`,
      description: 'does things',
      script: 'await page.goto("https://example.com")',
      envVars: props.envVars ?? { SECRET: 'agent-secret-value' },
      providerProjectId: null,
      contextId: null,
      extensionId: 'ext-1',
      region: 'local',
      timeoutSec: 600,
      active: props.active ?? true,
      metadata: { team: 'qa', tags: ['a', 'b'], nested: { ok: true } },
    },
  });
}
