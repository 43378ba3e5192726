import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RunsUser, signUpUser } from './runsApi.ts';
import { serverForTests } from './serverProcess.ts';

/**
 * A run's CDP connection is an ordinary, bounded client (http-api.md §11, "Runs are bounded…"),
 * through the server as `npm start` starts it, with real Chromium. Its `PUBLIC_URL` names a port
 * where nothing listens: a run's connection is served in process, never through the public URL.
 * The service's RSS is sampled while a script attacks it; the bound stated in docs/security.md
 * (frames of at most 32 MiB, at most 64 MiB unread per connection) is what the assertions allow.
 */

const running = serverForTests('runs-cdp', () => ({ PUBLIC_URL: 'http://127.0.0.1:9' }));
let user: RunsUser;

beforeAll(async () => {
  user = await signUpUser(running.server.url);
});

/** The server process's resident memory, in MiB. */
function serverRssMb(): number {
  const status = readFileSync(`/proc/${running.server.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** Runs `script` as an agent while sampling the server's RSS; the run and the RSS growth at its peak. */
async function attack(script: string) {
  const baseline = serverRssMb();
  let peak = baseline;
  let done = false;
  const sampling = (async () => {
    while (!done) {
      peak = Math.max(peak, serverRssMb());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    const started = (await user.start(await user.agent(script), { wait: 60, timeoutSec: 90 })).body;
    const run = ['QUEUED', 'RUNNING'].includes(started.status) ? await user.terminal(started.id) : started;
    return { run, growthMb: peak - baseline };
  } finally {
    done = true;
    await sampling;
  }
}

describe('a run’s CDP connection', () => {
  it('is served in process: a run works although PUBLIC_URL names a port where nothing listens', async () => {
    const { run } = await attack(
      "await page.setContent('<title>in process</title>');\nreturn await page.title();",
    );
    expect(run).toMatchObject({ status: 'SUCCEEDED', result: 'in process' });
  });

  it('refuses frames over 32 MiB at their header: six 256 MiB frames hold nothing', async () => {
    const { run, growthMb } = await attack(`
const net = await import('node:net');
const chunk = Buffer.alloc(1024 * 1024, 120);
const attempt = () => new Promise((resolve) => {
  const socket = net.connect('cdp.sock');
  let upgraded = false;
  socket.on('error', () => {});
  socket.on('close', () => resolve(upgraded ? 'closed by the service' : 'refused'));
  socket.once('data', (data) => {
    upgraded = String(data).startsWith('HTTP/1.1 101');
    if (!upgraded) return socket.destroy();
    // A masked binary frame announcing 256 MiB, then 48 MiB of it.
    const header = Buffer.from([0x82, 0xff, 0, 0, 0, 0, 0x10, 0, 0, 0, 1, 2, 3, 4]);
    socket.write(header);
    let sent = 0;
    const more = () => {
      while (sent < 48 && !socket.destroyed) {
        sent++;
        if (!socket.write(chunk)) return socket.once('drain', more);
      }
    };
    more();
  });
  socket.write('GET / HTTP/1.1\\r\\nHost: run\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n' +
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n');
});
return await Promise.all(Array.from({ length: 6 }, attempt));`);
    expect(run.status, JSON.stringify(run.error)).toBe('SUCCEEDED');
    expect(run.result).toEqual(Array.from({ length: 6 }, () => 'closed by the service'));
    console.log(`256 MiB frames: the service grew ${growthMb.toFixed(0)} MiB`);
    expect(growthMb).toBeLessThan(96);
  });

  it('disconnects a script that never reads before 64 MiB wait for it', async () => {
    const { run, growthMb } = await attack(`
const cdp = await context.newCDPSession(page);
const answers = Array.from({ length: 300 }, () =>
  cdp.send('Runtime.evaluate', { expression: "'x'.repeat(1 << 20)", returnByValue: true }).then(() => 'answered', () => 'cut'));
// The commands go out, then it reads nothing for 8 s: its event loop is blocked while the browser answers.
await new Promise((resolve) => setTimeout(resolve, 20));
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 8000);
const outcomes = await Promise.all(answers);
return outcomes.filter((o) => o === 'cut').length;`);
    expect(run.status, JSON.stringify(run.error)).toBe('SUCCEEDED');
    console.log(`never reading: ${run.result} answers cut, the service grew ${growthMb.toFixed(0)} MiB`);
    expect(run.result).toBeGreaterThan(0);
    // 64 MiB unread, and the garbage of the answers the browser still sends (measured: about 200 MiB
    // at the peak; before the bound, 370 MiB and growing with every answer, none cut).
    expect(growthMb).toBeLessThan(256);
  });
});
