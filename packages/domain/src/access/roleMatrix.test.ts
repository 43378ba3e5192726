import {
  anApiKey,
  aRun,
  FakeApiKeySecrets,
  givenRunWorld,
  InMemoryApiKeyRepository,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { CreateAgent } from '../agents/CreateAgent.ts';
import { DeleteAgent } from '../agents/DeleteAgent.ts';
import { GetAgent } from '../agents/GetAgent.ts';
import { ListAgents } from '../agents/ListAgents.ts';
import { UpdateAgent } from '../agents/UpdateAgent.ts';
import { CreateApiKey } from '../apiKeys/CreateApiKey.ts';
import { ListApiKeys } from '../apiKeys/ListApiKeys.ts';
import { RevokeApiKey } from '../apiKeys/RevokeApiKey.ts';
import { ListAuditEntries } from '../audit/ListAuditEntries.ts';
import { User } from '../auth/User.ts';
import { CreateContext } from '../contexts/CreateContext.ts';
import { ChangeMemberRole } from '../members/ChangeMemberRole.ts';
import { InviteMember } from '../members/InviteMember.ts';
import { ListInvitations } from '../members/ListInvitations.ts';
import { ListMembers } from '../members/ListMembers.ts';
import { RemoveMember } from '../members/RemoveMember.ts';
import { RevokeInvitation } from '../members/RevokeInvitation.ts';
import { TransferProject } from '../members/TransferProject.ts';
import { ArchiveProject } from '../projects/ArchiveProject.ts';
import { DeleteProject } from '../projects/DeleteProject.ts';
import { GetProject } from '../projects/GetProject.ts';
import { UpdateProject } from '../projects/UpdateProject.ts';
import { GetSession } from '../sessions/GetSession.ts';
import { ListSessions } from '../sessions/ListSessions.ts';
import { asUser, type Caller } from './Caller.ts';
import { PROJECT_ROLES, type ProjectRole, roleAtLeast } from './projectRoles.ts';

/** A member of the world's project for each role. */
const MEMBER_OF: Record<ProjectRole, string> = {
  owner: 'owner-1',
  admin: 'admin-1',
  developer: 'dev-1',
  viewer: 'viewer-1',
};

/** The world each call runs in: a project with a member of each role, and one of everything to act on. */
async function givenWorld() {
  const w = await givenRunWorld();
  const now = w.clock.now();
  for (const [role, id] of Object.entries(MEMBER_OF)) {
    if (role === 'owner') continue;
    await w.users.ensure(User.create({ id, email: `${id}@example.com`, createdAt: now }));
    await w.members.add({ projectId: w.project.id, userId: id, role: role as 'admin', now });
  }
  // Whom member changes are about: a developer none of the callers is.
  await w.users.ensure(User.create({ id: 'target-1', email: 'target@example.com', createdAt: now }));
  await w.members.add({ projectId: w.project.id, userId: 'target-1', role: 'developer', now });
  const secrets = new FakeApiKeySecrets();
  const apiKeys = new InMemoryApiKeyRepository();
  const key = anApiKey({ projectId: w.project.id, ownerId: w.ownerId, now });
  await apiKeys.add(key);
  const agent = await w.givenAgent();
  const session = await w.startSession();
  const run = aRun({ projectId: w.project.id, ownerId: w.ownerId, status: 'RUNNING' });
  await w.runRepository.add(run);
  const { invitation } = await new InviteMember({ ...w, secrets }).execute({
    caller: w.owner,
    projectId: w.project.id,
    email: 'invitee@example.com',
    role: 'viewer',
  });
  return { ...w, deps: { ...w, secrets, apiKeys }, key, agent, session, run, invitation };
}

type World = Awaited<ReturnType<typeof givenWorld>>;

/** Each use case by the least role SPEC §17 gives it, called as `caller` in the world's project. */
const CASES: Array<[string, ProjectRole, (w: World, caller: Caller) => Promise<unknown>]> = [
  ['GetProject', 'viewer', (w, caller) => new GetProject(w).execute({ caller, projectId: w.project.id })],
  ['ListMembers', 'viewer', (w, caller) => new ListMembers(w).execute({ caller, projectId: w.project.id })],
  ['ListAgents', 'viewer', (w, caller) => new ListAgents(w).execute({ caller, projectId: w.project.id })],
  [
    'GetAgent',
    'viewer',
    (w, caller) => new GetAgent(w).execute({ caller, projectId: w.project.id, agentId: w.agent.id }),
  ],
  ['ListSessions', 'viewer', (w, caller) => new ListSessions(w).execute({ caller, projectId: w.project.id })],
  [
    'GetSession',
    'viewer',
    (w, caller) =>
      new GetSession(w).execute({ caller, projectId: w.project.id, sessionId: w.session.id, refresh: false }),
  ],
  ['ListRuns', 'viewer', (w, caller) => w.runs.list.execute({ caller, projectId: w.project.id, query: {} })],
  [
    'GetRun',
    'viewer',
    (w, caller) => w.runs.get.execute({ caller, projectId: w.project.id, runId: w.run.id }),
  ],
  [
    'CreateAgent',
    'developer',
    (w, caller) => new CreateAgent(w).execute({ caller, projectId: w.project.id, agent: { name: 'New' } }),
  ],
  [
    'UpdateAgent',
    'developer',
    (w, caller) =>
      new UpdateAgent(w).execute({
        caller,
        projectId: w.project.id,
        agentId: w.agent.id,
        changes: { description: 'changed' },
      }),
  ],
  [
    'DeleteAgent',
    'developer',
    (w, caller) => new DeleteAgent(w).execute({ caller, projectId: w.project.id, agentId: w.agent.id }),
  ],
  [
    'CreateSession',
    'developer',
    (w, caller) => w.createSession.execute({ caller, projectId: w.project.id, request: {} }),
  ],
  [
    'ReleaseSession',
    'developer',
    (w, caller) => w.releaseSession.execute({ caller, projectId: w.project.id, sessionId: w.session.id }),
  ],
  [
    'StartAgentRun',
    'developer',
    (w, caller) =>
      w.runs.startAgentRun.execute({ caller, projectId: w.project.id, agentId: w.agent.id, request: {} }),
  ],
  [
    'CancelRun',
    'developer',
    (w, caller) => w.runs.cancel.execute({ caller, projectId: w.project.id, runId: w.run.id }),
  ],
  [
    'CreateContext',
    'developer',
    (w, caller) => new CreateContext(w).execute({ caller, projectId: w.project.id }),
  ],
  [
    'UpdateProject',
    'admin',
    (w, caller) => new UpdateProject(w).execute({ caller, projectId: w.project.id, name: 'Renamed' }),
  ],
  [
    'ArchiveProject',
    'admin',
    (w, caller) => new ArchiveProject(w).execute({ caller, projectId: w.project.id }),
  ],
  [
    'CreateApiKey',
    'admin',
    (w, caller) => new CreateApiKey(w.deps).execute({ caller, projectId: w.project.id, name: 'CI' }),
  ],
  [
    'ListApiKeys',
    'admin',
    (w, caller) => new ListApiKeys(w.deps).execute({ caller, projectId: w.project.id }),
  ],
  [
    'RevokeApiKey',
    'admin',
    (w, caller) => new RevokeApiKey(w.deps).execute({ caller, projectId: w.project.id, keyId: w.key.id }),
  ],
  [
    'InviteMember',
    'admin',
    (w, caller) =>
      new InviteMember(w.deps).execute({
        caller,
        projectId: w.project.id,
        email: 'another@example.com',
        role: 'developer',
      }),
  ],
  [
    'ListInvitations',
    'admin',
    (w, caller) => new ListInvitations(w).execute({ caller, projectId: w.project.id }),
  ],
  [
    'RevokeInvitation',
    'admin',
    (w, caller) =>
      new RevokeInvitation(w).execute({ caller, projectId: w.project.id, invitationId: w.invitation.id }),
  ],
  [
    'ChangeMemberRole',
    'admin',
    (w, caller) =>
      new ChangeMemberRole(w).execute({
        caller,
        projectId: w.project.id,
        userId: 'target-1',
        role: 'viewer',
      }),
  ],
  [
    'RemoveMember (another member)',
    'admin',
    (w, caller) => new RemoveMember(w).execute({ caller, projectId: w.project.id, userId: 'target-1' }),
  ],
  [
    'ListAuditEntries',
    'admin',
    (w, caller) => new ListAuditEntries(w).execute({ caller, projectId: w.project.id }),
  ],
  [
    'TransferProject',
    'owner',
    (w, caller) => new TransferProject(w).execute({ caller, projectId: w.project.id, userId: 'target-1' }),
  ],
  [
    'DeleteProject',
    'owner',
    (w, caller) =>
      new DeleteProject({ ...w, runs: w.runRepository }).execute({ caller, projectId: w.project.id }),
  ],
];

describe('the role matrix (SPEC §17): each role gets exactly its rights', () => {
  it.each(
    CASES.flatMap(([name, least, call]) => PROJECT_ROLES.map((role) => [name, role, least, call] as const)),
  )('%s as %s (needs %s)', async (_, role, least, call) => {
    const w = await givenWorld();
    const result = call(w, asUser(MEMBER_OF[role]));
    if (roleAtLeast(role, least))
      await result; // resolves: no refusal
    else await expect(result).rejects.toMatchObject({ code: 'forbidden_for_role' });
  });

  it('masks secret values for a viewer only', async () => {
    const w = await givenWorld();
    const agent = await new CreateAgent(w).execute({
      caller: w.owner,
      projectId: w.project.id,
      agent: { name: 'Secretive', envVars: { TOKEN: 's3cret' } },
    });
    const envOf = async (role: ProjectRole) =>
      (
        await new GetAgent(w).execute({
          caller: asUser(MEMBER_OF[role]),
          projectId: w.project.id,
          agentId: agent.id,
        })
      ).envVars;
    expect(await envOf('viewer')).toEqual({ TOKEN: '********' });
    for (const role of ['developer', 'admin', 'owner'] as const)
      expect(await envOf(role)).toEqual({ TOKEN: 's3cret' });
    const listed = await new ListAgents(w).execute({
      caller: asUser(MEMBER_OF.viewer),
      projectId: w.project.id,
    });
    expect(listed.find((a) => a.id === agent.id)?.envVars).toEqual({ TOKEN: '********' });
  });
});
