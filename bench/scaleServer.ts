/**
 * The API server of the Scale scenario: a data folder and database that outlive the process, so the
 * server can be stopped for bulk seeding and started again on the seeded database (same signing
 * key, same secret key: the token and the sealed `env` values stay valid).
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { freePort } from '../test/freePort.ts';
import { type Child, startChild } from './childProcess.ts';

const MAIN = resolve(import.meta.dirname, '../examples/server/src/main.ts');

/** A fresh 32-byte `SECRET_KEY` (hex) to give the server and to seal the seeded `env` values with. */
export const newSecretKey = (): string => randomBytes(32).toString('hex');

/**
 * Starts `examples/server/src/main.ts` on `databaseUrl` and `dataDir`. The local provider with no
 * warm browser and an hourly reconciler: nothing but the measured requests runs in the server.
 */
export async function startScaleServer(options: {
  databaseUrl: string;
  dataDir: string;
  secretKey: string;
}): Promise<Child> {
  return startChild({
    script: MAIN,
    env: {
      LOG_LEVEL: 'silent',
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl,
      SECRET_KEY: options.secretKey,
      ACCESS_TOKEN_TTL_SEC: '3600',
      BROWSER_PROVIDER: 'local',
      LOCAL_WARM_BROWSERS: '0',
      RECONCILE_INTERVAL_SEC: '3600',
    },
    port: await freePort(),
    readyPath: '/readyz',
    timeoutMs: 120_000,
  });
}

/** Times `samples` sequential GETs of each path, alternating (after `warmup` untimed rounds). */
export async function timeGets(
  baseUrl: string,
  token: string,
  paths: readonly string[],
  samples: number,
  warmup = 20,
): Promise<number[][]> {
  const times = paths.map(() => [] as number[]);
  const headers = { Authorization: `Bearer ${token}` };
  for (let round = 0; round < warmup + samples; round++) {
    for (const [i, path] of paths.entries()) {
      const started = performance.now();
      const response = await fetch(baseUrl + path, { headers, signal: AbortSignal.timeout(30_000) });
      const body = await response.text();
      const elapsed = performance.now() - started;
      if (response.status !== 200) throw new Error(`GET ${path} → ${response.status}: ${body.slice(0, 300)}`);
      if (round >= warmup) times[i]!.push(elapsed);
    }
  }
  return times;
}
