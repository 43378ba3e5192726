import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ResolvedInstanceId, resolveInstanceId } from './resolveInstanceId.ts';

describe('resolveInstanceId', () => {
  const held: ResolvedInstanceId[] = [];
  const dirs: string[] = [];
  const folder = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'browserdeck-instance-id-'));
    dirs.push(dir);
    return dir;
  };
  const resolve = async (dataDir: string, configured?: string) => {
    const resolved = await resolveInstanceId({ dataDir, configured });
    held.push(resolved);
    return resolved;
  };
  afterEach(async () => {
    for (const resolved of held.splice(0)) await resolved.slot?.release();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('keeps one id per data folder, and gives processes sharing it their own, each back after a restart', async () => {
    const dataDir = await folder();
    const [first, second] = await Promise.all([resolve(dataDir), resolve(dataDir)]);
    const base = (await readFile(join(dataDir, 'instance-id'), 'utf8')).trim();
    expect(base).toMatch(/^i-[0-9a-f-]{36}$/);
    expect([first.id, second.id].sort()).toEqual([base, `${base}-2`].sort());
    // The second one restarts while the first runs: it gets its own id back.
    const restarting = first.id === base ? second : first;
    await restarting.slot?.release();
    expect((await resolve(dataDir)).id).toBe(restarting.id);
  });

  it('takes a configured id as it is, with no slot, and refuses a malformed one', async () => {
    const dataDir = await folder();
    expect(await resolve(dataDir, 'pod-7')).toEqual({ id: 'pod-7', source: 'configured' });
    await expect(resolveInstanceId({ dataDir, configured: 'no spaces' })).rejects.toThrow(
      /LOCAL_INSTANCE_ID/,
    );
  });
});
