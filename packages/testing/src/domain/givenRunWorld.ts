import type { Agent, AgentFields, Caller } from '@browserdeck/domain';
import {
  CancelRun,
  ExecuteRun,
  FollowRunLogs,
  GetRun,
  GetRunLogs,
  ListRuns,
  ReapLostRuns,
  ReleaseSession,
  RunWaiters,
  StartAgentRun,
  StartSessionRun,
} from '@browserdeck/domain';
import { anAgent } from '../builders/anAgent.ts';
import { FakeScriptRunner } from './FakeScriptRunner.ts';
import { givenSessionWorld } from './givenSessionWorld.ts';
import { ManualTimers } from './ManualTimers.ts';

/**
 * The in-memory world run use-case tests start from: `givenSessionWorld` (its clock, stores, fake
 * provider and project, runs included), a `FakeScriptRunner`, `ManualTimers`, every run use case
 * built over them (`runs.*`, as `useCases.runs` names them), and `givenAgent` to store an active
 * agent with a script. With `maxLogBytes`, runs' log budget; with `maxWaitersPerOwner`, the
 * account's streams and long polls at once (`waiters`, shared as in the composition).
 */
export async function givenRunWorld(
  options: { instanceId?: string; maxLogBytes?: number; maxWaitersPerOwner?: number } = {},
) {
  const world = await givenSessionWorld(
    options.instanceId === undefined ? {} : { instanceId: options.instanceId },
  );
  const { clock, ids, projects, agents, sessions, provider } = world;
  const runRepository = world.runs;
  const scriptRunner = new FakeScriptRunner({ clock });
  const timers = new ManualTimers();
  const { createSession } = world;
  const releaseSession = new ReleaseSession({ projects, sessions, provider, clock });
  const waiters = new RunWaiters(options.maxWaitersPerOwner);
  const deps = {
    ...world,
    runs: runRepository,
    scriptRunner,
    timers,
    createSession,
    releaseSession,
    waiters,
  };
  const runs = {
    startAgentRun: new StartAgentRun(deps),
    startSessionRun: new StartSessionRun(deps),
    get: new GetRun(deps),
    list: new ListRuns(deps),
    cancel: new CancelRun(deps),
    logs: new GetRunLogs(deps),
    followLogs: new FollowRunLogs(deps),
    execute: new ExecuteRun({ ...deps, maxLogBytes: options.maxLogBytes }),
    reapLost: new ReapLostRuns(deps),
  };
  /** Stores an active agent of the project (or `projectId`) with a script, as `CreateAgent` would. */
  const givenAgent = async (
    fields: Partial<AgentFields> = {},
    projectId = world.project.id,
  ): Promise<Agent> => {
    const agent = anAgent({
      id: ids.next(),
      projectId,
      now: clock.now(),
      script: 'return document.title;',
      ...fields,
    });
    await agents.add(agent);
    return agent;
  };
  /** Starts a run of `agent` as the owner (or `caller`) and answers the stored run. */
  const startAgentRun = async (agent: Agent, request = {}, caller: Caller = world.owner) =>
    (await runs.startAgentRun.execute({ caller, projectId: agent.projectId, agentId: agent.id, request }))
      .run;
  return {
    ...world,
    waiters,
    runRepository,
    scriptRunner,
    timers,
    createSession,
    releaseSession,
    runs,
    givenAgent,
    startAgentRun,
  };
}
