import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { enterCgroupCommand } from './enterCgroupCommand.ts';

const run = promisify(execFile);

describe('enterCgroupCommand', () => {
  let dir = '';

  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes its own pid to every cgroup.procs file, then becomes the command under that same pid', async () => {
    dir = await mkdtemp(join(tmpdir(), 'browserdeck-enter-test-'));
    const files = [join(dir, 'a.procs'), join(dir, 'b.procs')];
    const wrapped = enterCgroupCommand(
      { command: 'sh', args: ['-c', 'echo $$'], env: { PATH: '/usr/bin:/bin' } },
      files,
    );
    const { stdout } = await run(wrapped.command, wrapped.args, { env: wrapped.env });
    const pid = stdout.trim();
    expect(pid).toMatch(/^\d+$/);
    for (const file of files) expect((await readFile(file, 'utf8')).trim()).toBe(pid);
  });

  it('never runs the command when it cannot enter the cgroup', async () => {
    dir = await mkdtemp(join(tmpdir(), 'browserdeck-enter-test-'));
    const marker = join(dir, 'ran');
    const wrapped = enterCgroupCommand(
      { command: 'sh', args: ['-c', `touch ${marker}`], env: { PATH: '/usr/bin:/bin' } },
      [join(dir, 'missing', 'cgroup.procs')],
    );
    await expect(run(wrapped.command, wrapped.args, { env: wrapped.env })).rejects.toMatchObject({
      code: 125,
    });
    await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('leaves the command as it is without cgroup files', () => {
    const command = { command: '/bin/true', args: ['x'], env: {} };
    expect(enterCgroupCommand(command, [])).toBe(command);
  });
});
