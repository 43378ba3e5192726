import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asUser } from '@browserdeck/domain';
import { eventually } from '@browserdeck/testing/local-chromium';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browserdeck } from './Browserdeck.ts';
import { createBrowserdeck } from './createBrowserdeck.ts';

/**
 * The whole path of a run as composed for `npm start`: the in-process queue, the worker, a session
 * of local Chromium reached over its `connectUrl` on this server, and the confined script runner.
 */
describe('an agent run on local Chromium, composed', () => {
  let dir: string;
  let server: Server;
  let browserdeck: Browserdeck;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'browserdeck-runs-'));
    server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    browserdeck = await createBrowserdeck({
      dataDir: dir,
      publicUrl: `http://127.0.0.1:${port}`,
      logger: pino({ level: 'silent' }),
      browsers: { local: { warmBrowsers: 0, maxSessions: 2 } },
      runs: { concurrency: 1 },
    });
    server.on('request', browserdeck.http.app.callback());
    server.on('upgrade', browserdeck.http.handleUpgrade);
    browserdeck.start();
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await browserdeck?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the script against its own session, stores its result and logs, and releases the session', async () => {
    const { useCases } = browserdeck;
    const { user } = await useCases.auth.signUp.execute({
      email: 'ada@example.com',
      password: 'password-123',
    });
    const caller = asUser(user.id);
    const project = await useCases.projects.create.execute({ caller, name: 'Runs' });
    const agent = await useCases.agents.create.execute({
      caller,
      projectId: project.id,
      agent: {
        name: 'title',
        script:
          "log('hello', input.who);\nawait page.goto('data:text/html,<title>Hi there</title>');\nreturn await page.title();",
      },
    });
    const projectId = project.id;
    const { run } = await useCases.runs.startAgentRun.execute({
      caller,
      projectId,
      agentId: agent.id,
      request: { input: { who: 'Ada' } },
    });
    const ended = await useCases.runs.get.execute({ caller, projectId, runId: run.id, waitSec: 60 });
    expect({ status: ended.status, result: ended.result, error: ended.error }).toEqual({
      status: 'SUCCEEDED',
      result: 'Hi there',
      error: null,
    });
    const { logs } = await useCases.runs.logs.execute({ caller, projectId, runId: run.id });
    expect(logs).toContainEqual(expect.objectContaining({ stream: 'stdout', message: 'hello Ada' }));
    // The run is answered first; its session is released after, and then the worker counts it done.
    const sessionStatus = async () =>
      (await useCases.sessions.get.execute({ caller, projectId, sessionId: ended.sessionId as string }))
        .session.status;
    await eventually(async () => (await sessionStatus()) !== 'RUNNING');
    expect(await sessionStatus()).toBe('COMPLETED');
    await eventually(async () =>
      /browserdeck_run_duration_seconds_count\{status="SUCCEEDED"\} 1\n/.test(
        await browserdeck.metrics.render(),
      ),
    );
    expect(await browserdeck.metrics.render()).toMatch(/browserdeck_run_spawn_seconds_count 1\n/);
  });
});
