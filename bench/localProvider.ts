/**
 * Local provider benchmark: warm create, cold create, and create → CDP connected through the
 * connectUrl → first `Runtime.evaluate` answered. Median and p95 over RUNS runs each, with the
 * browsers confined at `BENCH_ISOLATION` (default `on`: the strongest level of this host).
 *
 *   npm exec -- node --conditions=source bench/localProvider.ts [runs]
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LocalChromiumProvider } from '@browserdeck/adapters/local-chromium';
import { type CreateBrowserRequest, SystemClock } from '@browserdeck/domain';

const RUNS = Number(process.argv[2] ?? 20);
const ISOLATION = (process.env.BENCH_ISOLATION ?? 'on') as 'on' | 'off' | 'bubblewrap' | 'namespaces';
const WARM_UP = 2;
const request: CreateBrowserRequest = {
  sessionId: 'bench',
  projectId: 'bench',
  ownerId: 'bench',
  providerProjectId: 'local',
  region: 'local',
  timeoutSec: 300,
  contextId: null,
  contextPersist: true,
  extensionId: null,
  extension: null,
  proxies: null,
  keepAlive: true,
  viewport: null,
  record: null,
};

const scratch = await mkdtemp(join(tmpdir(), 'browserdeck-bench-'));
let provider: LocalChromiumProvider | null = null;
const server = createServer((_req, res) => res.writeHead(404).end());
server.on('upgrade', (req, socket, head) => {
  if (!provider?.handleUpgrade(req, socket, head)) socket.destroy();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function makeProvider(warmBrowsers: number): LocalChromiumProvider {
  return new LocalChromiumProvider({
    publicUrl,
    dataDir: scratch,
    tempDir: scratch,
    maxSessions: 4,
    maxSessionsPerOwner: 4,
    warmBrowsers,
    isolation: ISOLATION,
    clock: new SystemClock(),
  });
}

/** Times `run` RUNS times (after WARM_UP untimed runs); `prepare` and `after` are not timed. */
async function measure(
  prepare: () => Promise<void>,
  run: () => Promise<string>,
  after: (id: string) => Promise<void>,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + WARM_UP; i++) {
    await prepare();
    const start = performance.now();
    const id = await run();
    const elapsed = performance.now() - start;
    await after(id);
    if (i >= WARM_UP) times.push(elapsed);
  }
  return times;
}

/** Opens the connectUrl, attaches to the page and evaluates `1 + 1`, over raw CDP. */
async function connectAndEvaluate(connectUrl: string): Promise<void> {
  const ws = new WebSocket(connectUrl);
  let nextId = 1;
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result ?? {});
  });
  const send = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', reject);
  });
  const { targetInfos } = (await send('Target.getTargets')) as {
    targetInfos: Array<{ targetId: string; type: string }>;
  };
  const page = targetInfos.find((t) => t.type === 'page')!;
  const { sessionId } = (await send('Target.attachToTarget', { targetId: page.targetId, flatten: true })) as {
    sessionId: string;
  };
  const evaluated = (await send('Runtime.evaluate', { expression: '1 + 1' }, sessionId)) as {
    result: { value: number };
  };
  if (evaluated.result.value !== 2) throw new Error('unexpected evaluation result');
  ws.close();
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

const rows: Array<[string, number[], string]> = [];
let level = ISOLATION as string;
try {
  provider = makeProvider(1);
  await provider.start();
  const warm = provider;
  const release = async (id: string) => {
    await warm.release(id);
  };
  rows.push([
    'warm create',
    await measure(
      () => warm.warmPoolSettled(),
      async () => (await warm.create(request)).providerSessionId,
      release,
    ),
    '≤ 20',
  ]);
  rows.push([
    'create → connected → evaluated',
    await measure(
      () => warm.warmPoolSettled(),
      async () => {
        const session = await warm.create(request);
        await connectAndEvaluate(session.connectUrl);
        return session.providerSessionId;
      },
      release,
    ),
    '≤ 150',
  ]);
  await warm.close();

  provider = makeProvider(0);
  const cold = provider;
  await cold.start();
  level =
    (await (warm as { isolationLevel?: () => Promise<string> }).isolationLevel?.()) ??
    'none (before issue 14)';
  rows.push([
    'cold create',
    await measure(
      async () => {},
      async () => (await cold.create(request)).providerSessionId,
      async (id) => {
        await cold.release(id);
      },
    ),
    '≤ 600',
  ]);
  await cold.close();
} finally {
  await provider?.close();
  server.close();
  await rm(scratch, { recursive: true, force: true });
}

console.log(
  `local provider, isolation ${level}, ${RUNS} runs each (after ${WARM_UP} warm-up runs), milliseconds`,
);
console.log('| measurement | p50 | p95 | target p50 |');
console.log('|---|---:|---:|---:|');
for (const [name, times, target] of rows)
  console.log(
    `| ${name} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${target} |`,
  );
