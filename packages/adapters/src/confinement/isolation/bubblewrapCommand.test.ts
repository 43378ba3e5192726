import { describe, expect, it } from 'vitest';
import { bubblewrapCommand } from './bubblewrapCommand.ts';

const tools = { setpriv: '/usr/bin/setpriv', bwrap: '/usr/bin/bwrap', unshare: '/usr/bin/unshare' };
const base = {
  executable: '/opt/node/bin/node',
  readOnlyDirs: ['/opt/node/bin', '/srv/app/runner', '/srv/app/node_modules/playwright-core'],
  tools,
  binds: ['--ro-bind', '/usr', '/usr'],
  switchUser: [],
  env: { PATH: '/usr/bin' },
};
const launch = { executablePath: '/opt/node/bin/node', args: ['main.mjs'], profileDir: '/data/runs/run-1' };

/** The pairs following each `flag` in `args`. */
function pairs(args: readonly string[], flag: string): [string, string][] {
  return args.flatMap((arg, i) => (arg === flag ? [[args[i + 1]!, args[i + 2]!] as [string, string]] : []));
}

describe('bubblewrapCommand', () => {
  it('binds each read-only folder read-only at its path and the writable folder writable, and shares the network unless told not to', () => {
    const command = bubblewrapCommand({ ...base, launch, staged: false });
    expect(command.command).toBe('/usr/bin/bwrap');
    expect(pairs(command.args, '--ro-bind')).toEqual([
      ['/usr', '/usr'],
      ...base.readOnlyDirs.map((dir) => [dir, dir]),
    ]);
    expect(pairs(command.args, '--bind')).toEqual([['/data/runs/run-1', '/data/runs/run-1']]);
    expect(command.args).not.toContain('--unshare-net');
    expect(command.args.slice(-3)).toEqual(['--', '/opt/node/bin/node', 'main.mjs']);
    expect(
      bubblewrapCommand({ ...base, launch: { ...launch, network: false }, staged: false }).args,
    ).toContain('--unshare-net');
  });

  it('as root stages every folder first, each read-only one at its own place, in the order bwrap binds them back', () => {
    const command = bubblewrapCommand({
      ...base,
      launch,
      staged: true,
      switchUser: ['/usr/bin/setpriv', '--'],
    });
    expect(command.command).toBe('/usr/bin/unshare');
    const stage = command.args.indexOf('browserdeck-stage');
    expect(command.args.slice(stage + 1, stage + 6)).toEqual([
      '/data/runs/run-1',
      ...base.readOnlyDirs,
      '--',
    ]);
    expect(command.args[stage + 6]).toBe('/usr/bin/setpriv');
    expect(pairs(command.args, '--ro-bind').slice(1)).toEqual(
      base.readOnlyDirs.map((dir, i) => [`/run/browserdeck/ro-${i}`, dir]),
    );
    expect(pairs(command.args, '--bind')).toEqual([['/run/browserdeck/profile', '/data/runs/run-1']]);
  });
});
