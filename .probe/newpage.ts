import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs } from '../packages/adapters/src/browsers/local-chromium/chromium/chromiumArgs.ts';
import { givenProjectApiKey } from '../test/projectApiKey.ts';
import { startServerProcess } from '../test/serverProcess.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const med = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor((s.length - 1) / 2)]!; };
const BIN = '/usr/lib/chromium/chromium-headless-shell';
async function floorBrowser() {
  const dir = mkdtempSync(join(tmpdir(), 'floor-'));
  const args = chromiumArgs(dir, { sandbox: false, proxyUrl: null }).flatMap((a) => a === '--remote-debugging-pipe' ? ['--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0'] : [a]);
  const child = spawn(BIN, args, { detached: true, stdio: 'ignore' });
  for (;;) { try { const l = readFileSync(join(dir, 'DevToolsActivePort'), 'utf8').split('\n'); if (Number(l[0]) > 0 && l.length >= 2) return { url: `http://127.0.0.1:${l[0]}`, kill: () => process.kill(-child.pid!, 'SIGKILL') }; } catch {} await sleep(20); }
}
const server = await startServerProcess({ DATA_DIR: mkdtempSync(join(tmpdir(), 'probe-')), LOCAL_MAX_SESSIONS: '4', LOCAL_WARM_BROWSERS: '1' });
const given = await givenProjectApiKey(server, 'probe@example.com');
const rows: Record<string, number[][]> = {};
const add = (n: string, ...v: number[]) => (rows[n] ??= []).push(v);
async function measure(name: string, url: string, t0: number, t1: number, mode: string) {
  const browser = await chromium.connectOverCDP(url);
  const t2 = performance.now();
  const ctx = browser.contexts()[0]!;
  const page = mode === 'newPage' ? await ctx.newPage() : ctx.pages()[0]!;
  await page.evaluate('1 + 1');
  const t3 = performance.now();
  add(`${name} ${mode}`, t1 - t0, t2 - t1, t3 - t2, t3 - t0);
  await browser.close();
}
async function ours(mode: string) {
  await sleep(1500);
  const base = `${server.url}/v1/local/projects/${given.projectId}/sessions`;
  const h = { authorization: `Bearer ${given.token}`, 'content-type': 'application/json' };
  const t0 = performance.now();
  const s = (await (await fetch(base, { method: 'POST', headers: h, body: '{}' })).json()) as { id: string; connectUrl: string };
  const t1 = performance.now();
  await measure('ours', s.connectUrl, t0, t1, mode);
  await fetch(`${base}/${s.id}:release`, { method: 'POST', headers: h, body: '{}' });
}
async function floorFresh(mode: string) {
  const f = await floorBrowser(); await sleep(1500);
  const t0 = performance.now();
  try { await measure('floor-fresh', f.url, t0, t0, mode); } finally { f.kill(); }
}
const reused = await floorBrowser();
async function floorReused(mode: string) { const t0 = performance.now(); await measure('floor-reused', reused.url, t0, t0, mode); }
for (let i = 0; i < 10; i++) for (const mode of ['pages0', 'newPage']) { await ours(mode); await floorFresh(mode); await floorReused(mode); }
for (const [k, v] of Object.entries(rows)) console.log(k.padEnd(22), ['create', 'connect', 'page+eval', 'total'].map((n, i) => `${n} ${med(v.map((r) => r[i]!)).toFixed(1)}`).join('  '));
reused.kill();
await server.stop();
