import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { givenProjectApiKey } from '../test/projectApiKey.ts';
import { startServerProcess } from '../test/serverProcess.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const med = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor((s.length - 1) / 2)]!;
};
const server = await startServerProcess({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'probe-')),
  LOCAL_MAX_SESSIONS: '4',
  LOCAL_WARM_BROWSERS: '1',
});
const given = await givenProjectApiKey(server, 'probe@example.com');
const rows: Record<string, { c: number[]; k: number[]; e: number[]; t: number[] }> = {};
const add = (name: string, c: number, k: number, e: number) => {
  rows[name] ??= { c: [], k: [], e: [], t: [] };
  rows[name].c.push(c);
  rows[name].k.push(k);
  rows[name].e.push(e);
  rows[name].t.push(c + k + e);
};
async function bbRun(mode: string) {
  await sleep(1500);
  const t0 = performance.now();
  const r = await fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'x-bb-api-key': given.key, 'content-type': 'application/json' },
    body: JSON.stringify({ projectId: given.projectId }),
  });
  const s = (await r.json()) as { id: string; connectUrl: string };
  const t1 = performance.now();
  const browser = await chromium.connectOverCDP(s.connectUrl);
  const t2 = performance.now();
  const ctx = browser.contexts()[0]!;
  const page = mode === 'newPage' ? await ctx.newPage() : (ctx.pages()[0] ?? (await ctx.newPage()));
  await page.evaluate('1 + 1');
  const t3 = performance.now();
  add(`bb ${mode}`, t1 - t0, t2 - t1, t3 - t2);
  await browser.close();
  await fetch(`${server.url}/v1/sessions/${s.id}`, {
    method: 'POST',
    headers: { 'x-bb-api-key': given.key, 'content-type': 'application/json' },
    body: JSON.stringify({ projectId: given.projectId, status: 'REQUEST_RELEASE' }),
  });
}
const token = given.token;
async function nativeRun() {
  await sleep(1500);
  const base = `${server.url}/v1/local/projects/${given.projectId}/sessions`;
  const t0 = performance.now();
  const r = await fetch(base, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const s = (await r.json()) as { id: string; connectUrl: string };
  if (!s.connectUrl) throw new Error(JSON.stringify(s));
  const t1 = performance.now();
  const browser = await chromium.connectOverCDP(s.connectUrl);
  const t2 = performance.now();
  const ctx = browser.contexts()[0]!;
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  await page.evaluate('1 + 1');
  const t3 = performance.now();
  add('native', t1 - t0, t2 - t1, t3 - t2);
  await browser.close();
  await fetch(`${base}/${s.id}:release`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
}
for (let i = 0; i < 12; i++) {
  await bbRun('pages0');
  await nativeRun();
}
for (const [k, v] of Object.entries(rows))
  console.log(
    k,
    'create',
    med(v.c).toFixed(1),
    'connect',
    med(v.k).toFixed(1),
    'eval',
    med(v.e).toFixed(1),
    'total',
    med(v.t).toFixed(1),
  );
await server.stop();
