import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAgentRunLog, type RunJson, type RunsUser, signUpUser } from './runsApi.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

/**
 * A run's logs end to end (http-api.md §11), through the server started as `npm start` starts it:
 * lines of every stream in order, paged by cursor, and as Server-Sent Events, live, to the end
 * event, resumed with `Last-Event-ID`.
 */

let server: ServerProcess;
let dataDir: string;
let user: RunsUser;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-run-logs-'));
  server = await startServerProcess({ DATA_DIR: dataDir }, 60_000);
  user = await signUpUser(server.url);
});

afterAll(async () => {
  const code = await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

describe('a run’s logs', () => {
  // Each step waits for a round trip through the service (CDP), so the lines of one stream are read
  // before the next stream's are written.
  const SCRIPT = `
console.log('out one');
await page.evaluate(() => 0);
console.error('err one');
await page.evaluate(() => 0);
log('log one', { n: 1 });
await page.evaluate(() => 0);
await page.evaluate(() => console.log('page one'));
await page.evaluate(() => 0);
console.log('out two');
return 'done';
`;
  let run: RunJson;

  beforeAll(async () => {
    run = (await user.start(await user.agent(SCRIPT), { wait: 30 })).body;
  });

  it('are paged (limit 2, following nextCursor) in seq order, each line with its stream', async () => {
    expect(run).toMatchObject({ status: 'SUCCEEDED', result: 'done' });
    const { lines, pages } = await user.logs(run.id, 2);
    expectAgentRunLog(lines, run, [
      'stdout out one',
      'stderr err one',
      'stdout log one { n: 1 }',
      'console page one',
      'stdout out two',
    ]);
    // A full last page still names a cursor; the empty page after it ends with null.
    expect(pages).toBe(Math.floor(lines.length / 2) + 1);
    for (const line of lines) expect(Number.isNaN(Date.parse(line.timestamp))).toBe(false);
    // The run counts what it stored: each line's stream name and message.
    expect(run.logBytes).toBe(
      lines.reduce((sum, l) => sum + l.stream.length + Buffer.byteLength(l.message), 0),
    );
  });

  it('stream over SSE as log events, then end with the terminal run; Last-Event-ID resumes', async () => {
    const { lines } = await user.logs(run.id);
    const { contentType, events } = await user.stream(run.id);
    expect(contentType).toMatch(/^text\/event-stream/);
    expect(events.map((e) => e.event)).toEqual([...lines.map(() => 'log'), 'end']);
    expect(events.slice(0, -1).map((e) => ({ id: e.id, line: JSON.parse(e.data) }))).toEqual(
      lines.map((line) => ({ id: String(line.seq), line })),
    );
    expect(JSON.parse(events.at(-1)?.data as string)).toEqual(await user.run(run.id));

    const resumed = await user.stream(run.id, { lastEventId: '2' });
    const ids = lines.slice(2).map((l) => String(l.seq));
    expect(resumed.events.map((e) => e.id)).toEqual([...ids, ids.at(-1)]);
    expect(ids[0]).toBe('3');
    expect(JSON.parse(resumed.events[0]?.data as string)).toEqual(lines[2]);
    expect(resumed.events.at(-1)?.event).toBe('end');
  });

  it('stream live: a line arrives while the run is RUNNING, and end follows when it is canceled', async () => {
    const agentId = await user.agent("log('first');\nawait new Promise((r) => setTimeout(r, 600_000));");
    const started = (await user.start(agentId, { timeoutSec: 300 })).body;
    let statusAtFirst: Promise<string> | null = null;
    let canceled: Promise<unknown> | null = null;
    const { events } = await user.stream(started.id, {
      onEvent: (event) => {
        if (event.event !== 'log' || JSON.parse(event.data).message !== 'first' || statusAtFirst) return;
        statusAtFirst = user.run(started.id).then((r) => r.status);
        canceled = statusAtFirst.then(() => user.call('POST', `${user.base}/runs/${started.id}:cancel`));
      },
    });
    expect(await statusAtFirst).toBe('RUNNING');
    expect(await canceled).toMatchObject({ status: 200 });
    const sessionId = (await user.run(started.id)).sessionId;
    const messages = events.filter((e) => e.event === 'log').map((e) => JSON.parse(e.data).message);
    expect(messages.slice(0, 2)).toEqual([`session ${sessionId} ready`, 'first']);
    // The worker's own lines after the cancel (the session released) may come before the end or not.
    const after = events.filter((e) => e.event === 'log').slice(2);
    expect(after.map((e) => JSON.parse(e.data).stream)).toEqual(after.map(() => 'system'));
    expect(events.at(-1)?.event).toBe('end');
    expect(JSON.parse(events.at(-1)?.data as string)).toMatchObject({ id: started.id, status: 'CANCELED' });
  });
});
