import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { type RunJson, type RunsUser, signUpUser } from './runsApi.ts';
import { serverForTests } from './serverProcess.ts';

/**
 * Accounts share the run machinery fairly (http-api.md §11, "Runs are bounded…"), through the
 * server as `npm start` starts it, with real Chromium, on SQLite (the in-process queue) and on
 * PostgreSQL (pg-boss): one account's flood of runs neither holds every slot nor keeps another
 * account's run waiting past one slot's turnover; its queue is bounded; its waiters are too.
 */

const databases = [
  { name: 'SQLite (in-process queue)', url: async (): Promise<TestDatabase | null> => null },
  { name: 'PostgreSQL (pg-boss)', url: async (): Promise<TestDatabase | null> => createTestDatabase() },
];

describe.each(databases)('runs shared fairly, on $name', (database) => {
  let db: TestDatabase | null = null;
  let flooder: RunsUser;
  let other: RunsUser;
  // Dropped after the server stopped (after-hooks run last registered first).
  afterAll(async () => {
    await db?.drop();
  });
  const running = serverForTests('runs-fair', async () => {
    db = await database.url();
    return { RUN_CONCURRENCY: '2', SHUTDOWN_GRACE_SEC: '4', ...(db ? { DATABASE_URL: db.url } : {}) };
  });
  beforeAll(async () => {
    flooder = await signUpUser(running.server.url);
    other = await signUpUser(running.server.url);
  });

  it('300 runs from one account: 100 queued at most (429 run_queue_full), and another account’s run starts within one slot’s turnover', async () => {
    const agentId = await flooder.agent("await page.goto('data:text/html,<title>flood</title>'); return 1;");
    const answers: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 300; i++) {
      const answer = await flooder.call<{ code?: string }>(
        'POST',
        `${flooder.base}/agents/${agentId}/runs`,
        {},
      );
      answers.push(answer.status);
      if (answer.status === 429) {
        expect(answer.body.code).toBe('run_queue_full');
        retryAfter ??= answer.headers.get('retry-after');
      }
    }
    const created = answers.filter((s) => s === 201).length;
    expect(answers.filter((s) => s !== 201 && s !== 429)).toEqual([]);
    // 100 queued, and those that started (one slot's worth) while the rest were created.
    expect(created).toBeGreaterThanOrEqual(100);
    expect(created).toBeLessThan(150);
    expect(Number(retryAfter)).toBeGreaterThan(0);

    const mine = await other.agent(
      "await page.goto('data:text/html,<title>mine</title>'); return await page.title();",
    );
    const started = (await other.start(mine, { wait: 60 })).body;
    const run = ['QUEUED', 'RUNNING'].includes(started.status)
      ? await other.terminal(started.id, 90_000)
      : started;
    expect(run).toMatchObject({ status: 'SUCCEEDED', result: 'mine' });

    // While it waited, at most one of the flood's runs started: the flood holds one slot, not both.
    const flood = await allRuns(flooder);
    const createdAt = Date.parse(run.createdAt);
    const startedAt = Date.parse(run.startedAt ?? '');
    const overtook = flood.filter((r) => {
      const at = r.startedAt ? Date.parse(r.startedAt) : Number.NaN;
      return at > createdAt && at < startedAt;
    });
    expect(overtook.length).toBeLessThanOrEqual(1);
    // Nor did the flood ever run two at once.
    const spans = flood
      .filter((r) => r.startedAt && r.endedAt)
      .map((r) => [Date.parse(r.startedAt as string), Date.parse(r.endedAt as string)] as const)
      .sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  }, 180_000);
});

describe('an account’s waiters', () => {
  const running = serverForTests('runs-waiters', () => ({ SHUTDOWN_GRACE_SEC: '4' }));
  let user: RunsUser;
  beforeAll(async () => {
    user = await signUpUser(running.server.url);
  });

  it('the 17th log stream or wait of one account is a 429; one closed makes room again', async () => {
    const agentId = await user.agent('await new Promise(() => {});');
    const run = (await user.start(agentId, { timeoutSec: 120 })).body;
    const streamUrl = `${running.server.url}${user.base}/runs/${run.id}/logs/stream`;
    const open = (controller: AbortController) =>
      fetch(streamUrl, { headers: { Authorization: `Bearer ${user.token}` }, signal: controller.signal });
    const controllers = Array.from({ length: 16 }, () => new AbortController());
    const streams = await Promise.all(controllers.map(open));
    expect(streams.map((s) => s.status)).toEqual(Array(16).fill(200));

    const refused = await open(new AbortController());
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const waited = await user.call<{ code: string }>('GET', `${user.base}/runs/${run.id}?wait=5`);
    expect(waited.status).toBe(429);
    // A create that waits is answered at once instead (the run is made; the wait is what is refused).
    const created = await user.call<RunJson>('POST', `${user.base}/agents/${agentId}/runs`, { wait: 30 });
    expect(created.status).toBe(201);
    // Another account is not held back by this one's streams.
    const stranger = await signUpUser(running.server.url);
    const theirs = (await stranger.start(await stranger.agent('return 2;'), { wait: 60 })).body;
    expect(theirs).toMatchObject({ status: 'SUCCEEDED', result: 2 });

    controllers[0]!.abort();
    // The server hears the stream close; then a stream of this account is taken again.
    let again: Response | undefined;
    for (let attempt = 0; attempt < 50 && again?.status !== 200; attempt++) {
      again?.body?.cancel().catch(() => {});
      again = await open(new AbortController());
      if (again.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(again?.status).toBe(200);
    for (const controller of controllers) controller.abort();
    await user.call('POST', `${user.base}/runs/${run.id}:cancel`);
  });
});

/** Every run of `user`'s project, page by page. */
async function allRuns(user: RunsUser): Promise<RunJson[]> {
  const runs: RunJson[] = [];
  for (;;) {
    const page = await user.call<{ runs: RunJson[]; total: number }>(
      'GET',
      `${user.base}/runs?limit=100&offset=${runs.length}`,
    );
    runs.push(...page.body.runs);
    if (page.body.runs.length === 0 || runs.length >= page.body.total) return runs;
  }
}
