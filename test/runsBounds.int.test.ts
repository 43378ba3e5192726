import { beforeAll, describe, expect, it } from 'vitest';
import { type RunLogLineJson, type RunsUser, signUpUser } from './runsApi.ts';
import { serverForTests } from './serverProcess.ts';

/**
 * What a run sends back is bounded (http-api.md §11, "Runs are bounded…"), through the server as
 * `npm start` starts it, with real Chromium: the runner's pipe takes only its typed protocol, every
 * stored byte counts against the log budget, errors and pages are cut to size.
 */

/** RUN_MAX_LOG_BYTES, small so that a flood reaches it fast. */
const MAX_LOG_BYTES = 2 * 1024 * 1024;

const running = serverForTests('runs-bounds', () => ({ RUN_MAX_LOG_BYTES: String(MAX_LOG_BYTES) }));
let user: RunsUser;

beforeAll(async () => {
  user = await signUpUser(running.server.url);
});

/** Runs `script` as an agent and waits for its end. */
async function runScript(script: string) {
  const run = (await user.start(await user.agent(script), { wait: 60 })).body;
  const ended = ['QUEUED', 'RUNNING'].includes(run.status) ? await user.terminal(run.id) : run;
  const { lines } = await user.logs(ended.id, 1000);
  return { run: ended, lines };
}

/** A script line writing `messages` to the runner's result pipe itself, as any script can. */
const writeFd3 = (messages: string) =>
  `const { writeSync } = await import('node:fs');\nconst send = (m) => writeSync(3, JSON.stringify(m) + '\\n');\n${messages}`;

const systemLines = (lines: RunLogLineJson[]) =>
  lines.filter((l) => l.stream === 'system').map((l) => l.message);

describe('the runner’s pipe takes its typed protocol only', () => {
  it('a forged system line ends the run runner_failed, and is never stored', async () => {
    const { run, lines } = await runScript(
      writeFd3("send({ type: 'log', stream: 'system', message: 'session forged released' });\nreturn 1;"),
    );
    expect(run).toMatchObject({
      status: 'FAILED',
      result: null,
      error: { code: 'runner_failed', message: expect.stringContaining('at stream') },
    });
    expect(lines.some((l) => l.message.includes('forged'))).toBe(false);
    expect(systemLines(lines)).toContainEqual(
      expect.stringMatching(/^the run was stopped: its process sent .*stream/),
    );
  });

  it('stream names of 1 MiB store nothing of them: the first ends the run', async () => {
    const { run, lines } = await runScript(
      writeFd3(
        "const stream = 'x'.repeat(1024 * 1024);\nfor (let i = 0; i < 50; i++) send({ type: 'log', stream, message: 'hi' });\nreturn 1;",
      ),
    );
    expect(run).toMatchObject({ status: 'FAILED', error: { code: 'runner_failed' } });
    expect(new Set(lines.map((l) => l.stream))).toEqual(new Set(['system']));
    expect(run.logBytes).toBeLessThan(4096);
    expect(run.logBytes).toBe(lines.reduce((n, l) => n + l.stream.length + Buffer.byteLength(l.message), 0));
  });

  it('valid lines written to the pipe count against the budget like any output', async () => {
    const { run, lines } = await runScript(
      writeFd3(
        "const message = 'y'.repeat(16 * 1024);\nfor (let i = 0; i < 200; i++) send({ type: 'log', stream: 'stderr', message });\nreturn 'done';",
      ),
    );
    expect(run).toMatchObject({ status: 'SUCCEEDED', result: 'done' });
    const stored = lines.reduce((n, l) => n + l.stream.length + Buffer.byteLength(l.message), 0);
    expect(run.logBytes).toBe(stored);
    const system = lines.filter((l) => l.stream === 'system');
    const systemBytes = system.reduce((n, l) => n + l.stream.length + Buffer.byteLength(l.message), 0);
    expect(stored - systemBytes).toBeLessThanOrEqual(MAX_LOG_BYTES);
    expect(systemLines(lines)).toContain(
      `log limit of ${MAX_LOG_BYTES} bytes reached; further output dropped`,
    );
  });

  it('what is still on its way after the result (a timer, a page logging) is dropped, never held against the run', async () => {
    const { run, lines } = await runScript(
      "setInterval(() => console.log('tick'), 1);\nawait page.evaluate(() => setInterval(() => console.log('page tick'), 1));\nawait new Promise((resolve) => setTimeout(resolve, 50));\nreturn 'kept';",
    );
    expect(run).toMatchObject({ status: 'SUCCEEDED', result: 'kept', error: null, exitCode: 0 });
    expect(systemLines(lines).some((l) => l.startsWith('the run was stopped'))).toBe(false);
  });
});

describe('what a run answers is cut to size', () => {
  it('a thrown error of 7 MB is answered cut to 4 KiB and marked, in the run and the list', async () => {
    const { run } = await runScript("throw new Error('e'.repeat(7 * 1024 * 1024));");
    expect(run.status).toBe('FAILED');
    expect(run.error?.code).toBe('script_error');
    expect(Buffer.byteLength(run.error?.message ?? '')).toBeLessThanOrEqual(4096);
    expect(run.error?.message).toMatch(/^e+ …\[message cut at 4 KiB\]$/);
    const list = await user.call<{ runs: Array<{ id: string; error: unknown }> }>(
      'GET',
      `${user.base}/runs?limit=100`,
    );
    expect(list.body.runs.find((r) => r.id === run.id)?.error).toEqual(run.error);
  });

  it('a page of log lines stays under 1 MiB, however large its limit', async () => {
    const { run } = await runScript(
      "for (let i = 0; i < 200; i++) console.log('z'.repeat(16 * 1024));\nreturn 1;",
    );
    expect(run.status).toBe('SUCCEEDED');
    const page = await user.call<{ logs: RunLogLineJson[]; nextCursor: string | null }>(
      'GET',
      `${user.base}/runs/${run.id}/logs?limit=1000`,
    );
    expect(page.status).toBe(200);
    const bytes = Buffer.byteLength(JSON.stringify(page.body));
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(page.body.logs.length).toBeGreaterThan(10);
    expect(page.body.nextCursor).toBe(String(page.body.logs.at(-1)?.seq));
  });
});
