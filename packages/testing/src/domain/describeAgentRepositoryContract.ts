import type { AgentFields, AgentRepository } from '@browserdeck/domain';
import { Agent, ConflictError, DomainError } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { anAgentFields } from '../builders/anAgentFields.ts';
import { AWKWARD_NAME, AWKWARD_OPAQUE, AWKWARD_TEXT } from './awkwardText.ts';

/** A fresh, empty agent store, and a way to create the project rows its agents belong to. */
export interface AgentRepositoryFixture {
  agents: AgentRepository;
  /** Makes `projectId` exist (database stores need the row for their foreign key). */
  givenProject(projectId: string): Promise<void>;
}

const P1 = '0190d000-0000-7000-8000-0000000000a1';
const P2 = '0190d000-0000-7000-8000-0000000000a2';

/** Every own field of the entity, dates as ISO strings, so a comparison covers each one to the millisecond. */
function fieldsOf(agent: Agent): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(agent).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  );
}

/** The error code a promise rejects with; undefined when it resolves. */
async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof DomainError ? error.code : String(error);
  }
}

/**
 * Behaviour every `AgentRepository` must have (http-api.md §6): round trips, names unique per project
 * (also under concurrency), newest-first listing, project-scoped deletes. `create` gives a fresh,
 * empty store.
 */
export function describeAgentRepositoryContract(
  name: string,
  options: { create: () => Promise<AgentRepositoryFixture> },
): void {
  describe(`AgentRepository contract: ${name}`, () => {
    let seq = 0;
    const base = Date.parse('2026-03-02T08:00:00.456Z');

    function agent(
      props: { projectId?: string; name?: string; minute?: number } & Partial<AgentFields> = {},
    ): Agent {
      seq++;
      const { projectId = P1, minute = seq, ...fields } = props;
      return Agent.create({
        id: `0190d000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
        projectId,
        fields: anAgentFields({ name: `Agent ${seq}`, ...fields }),
        now: new Date(base + minute * 60_000),
      });
    }

    async function setUp(): Promise<AgentRepository> {
      const fixture = await options.create();
      await fixture.givenProject(P1);
      await fixture.givenProject(P2);
      return fixture.agents;
    }

    it('round-trips every field, env vars and metadata included', async () => {
      const agents = await setUp();
      const original = agent({
        name: 'Crawler ✓',
        description: 'Crawls the shop every night.\nSecond line.',
        script: 'await page.goto("https://example.com"); // ünïcode 🚀',
        envVars: { API_KEY: 'sk-123', EMPTY: '', _X1: 'a=b;c "quoted"' },
        providerProjectId: 'bb-project',
        contextId: 'ctx-1',
        extensionId: 'ext-1',
        region: 'eu-central-1',
        timeoutSec: 21_600,
        active: false,
        metadata: { team: 'growth', retries: 3, tags: ['a', 'b'], nested: { on: true, none: null } },
      });
      await agents.add(original);
      const found = await agents.findInProject(P1, original.id);
      expect(found).toBeInstanceOf(Agent);
      expect(fieldsOf(found!)).toEqual(fieldsOf(original));
    });

    it('round-trips awkward characters in every text field, metadata keys and values included', async () => {
      const agents = await setUp();
      const original = agent({
        name: AWKWARD_NAME,
        description: AWKWARD_TEXT,
        script: AWKWARD_OPAQUE,
        envVars: { AWKWARD: AWKWARD_OPAQUE },
        providerProjectId: AWKWARD_NAME,
        contextId: "ctx'?",
        extensionId: '$1\\',
        metadata: { [AWKWARD_OPAQUE]: AWKWARD_OPAQUE, list: [AWKWARD_TEXT, { '?': "'" }] },
      });
      await agents.add(original);
      expect(fieldsOf((await agents.findInProject(P1, original.id))!)).toEqual(fieldsOf(original));
      expect((await agents.list(P1, { activeOnly: false })).map(fieldsOf)).toEqual([fieldsOf(original)]);
      original.revise(
        { ...original.fields, name: `${AWKWARD_NAME} 2`, script: `${AWKWARD_OPAQUE}?` },
        new Date(base),
      );
      await agents.update(original);
      expect(fieldsOf((await agents.findInProject(P1, original.id))!)).toEqual(fieldsOf(original));
    });

    it('round-trips an agent with null provider fields and empty objects', async () => {
      const agents = await setUp();
      const original = agent();
      await agents.add(original);
      const found = await agents.findInProject(P1, original.id);
      expect(fieldsOf(found!)).toEqual(fieldsOf(original));
      expect(found).toMatchObject({
        providerProjectId: null,
        contextId: null,
        extensionId: null,
        envVars: {},
        metadata: {},
        active: true,
      });
    });

    it('finds an agent in its own project only, and nothing for unknown ids', async () => {
      const agents = await setUp();
      const a = agent({ projectId: P1 });
      await agents.add(a);
      expect(await agents.findInProject(P2, a.id)).toBeNull();
      expect(await agents.findInProject(P1, '0190d000-0000-7000-8000-00000000ffff')).toBeNull();
    });

    it('stores updates of every field and updatedAt', async () => {
      const agents = await setUp();
      const a = agent({ envVars: { OLD: '1' }, metadata: { v: 1 } });
      await agents.add(a);
      const createdAt = a.createdAt.toISOString();
      const later = new Date(base + 86_400_000 + 789);
      a.revise(
        {
          ...a.fields,
          name: 'Renamed',
          description: 'now described',
          envVars: { NEW: '2' },
          providerProjectId: 'p-2',
          region: 'ap-southeast-1',
          timeoutSec: 60,
          active: false,
          metadata: { v: 2 },
        },
        later,
      );
      await agents.update(a);
      const found = await agents.findInProject(P1, a.id);
      expect(fieldsOf(found!)).toEqual(fieldsOf(a));
      expect(found!.updatedAt.toISOString()).toBe(later.toISOString());
      expect(found!.createdAt.toISOString()).toBe(createdAt);
      expect(found!.envVars).toEqual({ NEW: '2' });
    });

    it('refuses a second agent of the same name in a project, but not in another project', async () => {
      const agents = await setUp();
      await agents.add(agent({ name: 'Same' }));
      const duplicate = agent({ name: 'Same' });
      expect(await codeOf(agents.add(duplicate))).toBe('agent_name_taken');
      await expect(agents.add(agent({ name: 'Same' }))).rejects.toBeInstanceOf(ConflictError);
      expect(await agents.findInProject(P1, duplicate.id)).toBeNull();
      const elsewhere = agent({ name: 'Same', projectId: P2 });
      await agents.add(elsewhere);
      expect((await agents.findInProject(P2, elsewhere.id))?.name).toBe('Same');
      expect(await agents.list(P1, { activeOnly: false })).toHaveLength(1);
    });

    it('refuses a rename onto another agent’s name and keeps the stored agent as it was', async () => {
      const agents = await setUp();
      const alpha = agent({ name: 'alpha' });
      const beta = agent({ name: 'beta' });
      await agents.add(alpha);
      await agents.add(beta);
      beta.revise({ ...beta.fields, name: 'alpha', description: 'changed' }, new Date(base + 3_600_000));
      expect(await codeOf(agents.update(beta))).toBe('agent_name_taken');
      expect(await agents.findInProject(P1, beta.id)).toMatchObject({ name: 'beta', description: '' });
      // Keeping one's own name is no conflict.
      alpha.revise({ ...alpha.fields, description: 'still alpha' }, new Date(base + 3_600_000));
      await agents.update(alpha);
      expect((await agents.findInProject(P1, alpha.id))?.description).toBe('still alpha');
    });

    it('lets exactly one of 20 concurrent adds of one name win', async () => {
      const agents = await setUp();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => codeOf(agents.add(agent({ name: 'race' })))),
      );
      expect(outcomes.filter((o) => o === undefined)).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'agent_name_taken')).toHaveLength(19);
      expect(await agents.list(P1, { activeOnly: false })).toHaveLength(1);
    });

    it('lists the project’s agents newest first, only the active ones when asked', async () => {
      const agents = await setUp();
      const a = agent({ minute: 1 });
      const b = agent({ minute: 3, active: false });
      const c = agent({ minute: 2 });
      const d = agent({ minute: 4 });
      const other = agent({ minute: 5, projectId: P2 });
      for (const x of [a, b, c, d, other]) await agents.add(x);
      const all = await agents.list(P1, { activeOnly: false });
      expect(all.map((x) => x.id)).toEqual([d.id, b.id, c.id, a.id]);
      expect(all[0]).toBeInstanceOf(Agent);
      expect((await agents.list(P1, { activeOnly: true })).map((x) => x.id)).toEqual([d.id, c.id, a.id]);
      expect((await agents.list(P2, { activeOnly: false })).map((x) => x.id)).toEqual([other.id]);
      expect(await agents.list('0190d000-0000-7000-8000-0000000000a3', { activeOnly: false })).toEqual([]);
    });

    it('deletes an agent of the given project only', async () => {
      const agents = await setUp();
      const a = agent();
      const keep = agent();
      await agents.add(a);
      await agents.add(keep);
      expect(await agents.delete(P2, a.id)).toBe(false);
      expect(await agents.findInProject(P1, a.id)).not.toBeNull();
      expect(await agents.delete(P1, a.id)).toBe(true);
      expect(await agents.findInProject(P1, a.id)).toBeNull();
      expect(await agents.delete(P1, a.id)).toBe(false);
      expect((await agents.list(P1, { activeOnly: false })).map((x) => x.id)).toEqual([keep.id]);
      // The name is free again.
      await agents.add(agent({ name: a.name }));
    });
  });
}
