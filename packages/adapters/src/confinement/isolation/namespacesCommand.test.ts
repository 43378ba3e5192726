import { describe, expect, it } from 'vitest';
import { namespacesCommand } from './namespacesCommand.ts';

const input = {
  launch: {
    executablePath: '/opt/node/bin/node',
    args: ['main.mjs'],
    profileDir: '/data/runs/run-1',
    tmpfsBytes: 1024,
  },
  executable: '/opt/node/bin/node',
  readOnlyDirs: ['/opt/node/bin', '/srv/app/runner'],
  tools: { setpriv: '/usr/bin/setpriv', bwrap: null, unshare: '/usr/bin/unshare' },
  hidden: ['/srv/app', '/data'],
  switchUser: ['/usr/bin/setpriv', '--reuid=999', '--'],
  env: {},
};

describe('namespacesCommand', () => {
  it('passes the writable folder, the read-only ones, the hidden ones and the read-only ones again, then the command', () => {
    const { command, args } = namespacesCommand(input);
    expect(command).toBe('/usr/bin/unshare');
    const script = args.indexOf('browserdeck-confine');
    expect(args.slice(script + 1)).toEqual([
      'size=1024,',
      '/data/runs/run-1',
      '/opt/node/bin',
      '/srv/app/runner',
      '--',
      '/data',
      '/srv/app',
      '--',
      '/opt/node/bin',
      '/srv/app/runner',
      '--',
      '/usr/bin/setpriv',
      '--reuid=999',
      '--',
      '/opt/node/bin/node',
      'main.mjs',
    ]);
    expect(args.slice(0, script)).not.toContain('--net');
  });

  it('gives it a network namespace of its own when told to', () => {
    const { args } = namespacesCommand({ ...input, launch: { ...input.launch, network: false } });
    expect(args.slice(0, args.indexOf('--'))).toContain('--net');
  });
});
