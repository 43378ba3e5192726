import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { CreateAgent } from './CreateAgent.ts';
import type { AgentInput } from './resolveAgentInput.ts';

const OWNER = 'owner-1';

async function setUp() {
  const { clock, ids, projects, agents, provider, project, addProject, audit, auditLog } =
    await givenSessionWorld();
  const other = await addProject('Other', 'other');
  const createAgent = new CreateAgent({ projects, agents, provider, ids, clock, audit });
  const create = (agent: AgentInput & { name: string }, projectId = project.id, ownerId = OWNER) =>
    createAgent.execute({ caller: asUser(ownerId), projectId, agent });
  const stored = () => agents.list(project.id, { activeOnly: false });
  return { projects, agents, project, other, create, stored, auditLog };
}

describe('CreateAgent', () => {
  it('stores a new agent with the defaults', async () => {
    const { create, project, stored } = await setUp();
    const agent = await create({ name: 'Crawler' });
    expect(agent).toMatchObject({
      projectId: project.id,
      name: 'Crawler',
      description: '',
      script: '',
      envVars: {},
      providerProjectId: null,
      contextId: null,
      extensionId: null,
      region: 'us-west-2',
      timeoutSec: 300,
      active: true,
      metadata: {},
    });
    expect(agent.createdAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(agent.updatedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(await stored()).toEqual([agent]);
  });

  it('stores every field given and trims the name', async () => {
    const { create, agents, project } = await setUp();
    const agent = await create({
      name: '  Nightly  ',
      description: 'd',
      script: 's',
      envVars: { KEY: 'v' },
      providerProjectId: 'bb',
      contextId: 'ctx',
      extensionId: 'ext',
      region: 'eu-central-1',
      timeoutSec: 60,
      active: false,
      metadata: { team: 'x', n: 1 },
    });
    expect(await agents.findInProject(project.id, agent.id)).toMatchObject({
      name: 'Nightly',
      description: 'd',
      script: 's',
      envVars: { KEY: 'v' },
      providerProjectId: 'bb',
      contextId: 'ctx',
      extensionId: 'ext',
      region: 'eu-central-1',
      timeoutSec: 60,
      active: false,
      metadata: { team: 'x', n: 1 },
    });
  });

  it('refuses a name the project already has with agent_name_taken; another project may have it', async () => {
    const { create, other, stored } = await setUp();
    await create({ name: 'Crawler' });
    await expect(create({ name: ' Crawler ' })).rejects.toMatchObject({ code: 'agent_name_taken' });
    expect(await stored()).toHaveLength(1);
    expect((await create({ name: 'Crawler' }, other.id)).projectId).toBe(other.id);
  });

  it('refuses an archived project with project_archived and stores nothing', async () => {
    const { create, projects, project, stored } = await setUp();
    project.archive(new Date());
    await projects.update(project);
    await expect(create({ name: 'Crawler' })).rejects.toMatchObject({ code: 'project_archived' });
    expect(await stored()).toEqual([]);
  });

  it('answers not_found for another owner’s project', async () => {
    const { create, project } = await setUp();
    await expect(create({ name: 'Crawler' }, project.id, 'owner-2')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it.each<[string, AgentInput & { name: string }, string]>([
    ['a blank name', { name: '   ' }, 'name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
    ['a description over 2000 characters', { name: 'a', description: 'd'.repeat(2001) }, 'description'],
    ['a script over 256 KiB', { name: 'a', script: 's'.repeat(256 * 1024 + 1) }, 'script'],
    ['a bad env var key', { name: 'a', envVars: { 'A-B': 'x' } }, 'envVars.A-B'],
    ['an unknown region', { name: 'a', region: 'mars-1' }, 'region'],
    ['a timeout of 59 s', { name: 'a', timeoutSec: 59 }, 'timeoutSec'],
    ['a timeout of 21601 s', { name: 'a', timeoutSec: 21_601 }, 'timeoutSec'],
    ['metadata over 8 KiB', { name: 'a', metadata: { big: 'x'.repeat(8 * 1024) } }, 'metadata'],
    ['an empty provider project id', { name: 'a', providerProjectId: '' }, 'providerProjectId'],
    ['a NUL in the name', { name: 'Craw\u0000ler' }, 'name'],
    ['a tab inside the name', { name: 'Craw\tler' }, 'name'],
    ['a C1 control in the name', { name: 'Craw\u0085ler' }, 'name'],
    ['a NUL in the description', { name: 'a', description: 'line 1\n\u0000' }, 'description'],
    ['an escape in the description', { name: 'a', description: 'red \u001b[31m' }, 'description'],
    ['a NUL in the script', { name: 'a', script: 'run()\u0000' }, 'script'],
    ['a NUL in an env value', { name: 'a', envVars: { KEY: 'a\u0000b' } }, 'envVars.KEY'],
    ['a NUL in a metadata string', { name: 'a', metadata: { deep: [{ x: '\u0000' }] } }, 'metadata'],
    ['a NUL in a metadata key', { name: 'a', metadata: { 'k\u0000': 1 } }, 'metadata'],
    ['a lone surrogate in the name', { name: 'a\ud800' }, 'name'],
    ['a line feed in the context id', { name: 'a', contextId: 'ctx\n' }, 'contextId'],
  ])('refuses %s with validation_failed', async (_, input, path) => {
    const { create, stored } = await setUp();
    await expect(create(input)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: expect.arrayContaining([expect.objectContaining({ path })]),
    });
    expect(await stored()).toEqual([]);
  });

  it('keeps tabs and line breaks in the description, and any control but NUL in script and env', async () => {
    const { create, agents, project } = await setUp();
    const agent = await create({
      name: 'Text',
      description: 'line 1\r\n\tline 2',
      script: 'print("\u001b[1m\u0007\u007f")',
      envVars: { TABS: 'a\tb\u0001' },
      metadata: { note: 'bell \u0007' },
    });
    expect(await agents.findInProject(project.id, agent.id)).toMatchObject({
      description: 'line 1\r\n\tline 2',
      script: 'print("\u001b[1m\u0007\u007f")',
      envVars: { TABS: 'a\tb\u0001' },
      metadata: { note: 'bell \u0007' },
    });
  });
});
