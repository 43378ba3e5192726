import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { givenProjectApiKey } from '../test/projectApiKey.ts';
import { startServerProcess } from '../test/serverProcess.ts';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const server = await startServerProcess({ ...(process.env.BD_AWAIT_FG ? { BD_AWAIT_FG: '1' } : {}), ...(process.env.BD_REFILL_DELAY_MS ? { BD_REFILL_DELAY_MS: process.env.BD_REFILL_DELAY_MS } : {}), DATA_DIR: mkdtempSync(join(tmpdir(), 'probe-')), LOCAL_MAX_SESSIONS: '4', LOCAL_WARM_BROWSERS: '1' });
const given = await givenProjectApiKey(server, 'probe@example.com');
const base = `${server.url}/v1/local/projects/${given.projectId}/sessions`;
const h = { authorization: `Bearer ${given.token}`, 'content-type': 'application/json' };
const out: string[] = [];
const N = Number(process.env.N ?? 20); const C: number[] = [], K: number[] = [], E: number[] = [];
for (let i = 0; i < N; i++) {
  await sleep(1500);
  const t0 = performance.now();
  const s = (await (await fetch(base, { method: 'POST', headers: h, body: '{}' })).json()) as { id: string; connectUrl: string };
  const t1 = performance.now();
  const browser = await chromium.connectOverCDP(s.connectUrl);
  const t2 = performance.now();
  await browser.contexts()[0]!.pages()[0]!.evaluate('1+1');
  const t3 = performance.now();
  C.push(t1 - t0); K.push(t2 - t1); E.push(t3 - t2);
  await browser.close();
  await fetch(`${base}/${s.id}:release`, { method: 'POST', headers: h, body: '{}' });
}
const med = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor((s.length - 1) / 2)]!.toFixed(1); };
console.log(process.env.LABEL, 'create', med(C), 'connect', med(K), 'eval', med(E), 'total', med(C.map((c, i) => c + K[i]! + E[i]!)));
const lines = server.output().split('\n').filter((l) => l.includes('"POST"') && l.includes('/sessions"') );

await server.stop();
