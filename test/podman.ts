import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { aptGetInstall, succeeds } from './aptGetInstall.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

/**
 * Podman as this machine kind runs it (../shared/research/containers.md, docs/deploy.md "Podman on
 * a cgroup v1 host"): the overlay storage driver, runc (crun refuses the hybrid cgroup layout), the
 * cgroupfs manager (no systemd), and file and process limits below the host's hard limits (the
 * container's init may not raise them: no CAP_SYS_RESOURCE).
 */
export const PODMAN_GLOBAL = ['--storage-driver=overlay'];
export const PODMAN_RUN = ['--runtime=runc', '--cgroup-manager=cgroupfs', ...ulimits()];

/** docs/deploy.md, "Isolation levels in a container": what the `bubblewrap` level needs of `podman run`. */
export const BUBBLEWRAP_SETTINGS = [
  '--cap-add=SYS_ADMIN',
  '--security-opt',
  'seccomp=unconfined',
  '--security-opt',
  'unmask=ALL',
];

/** The base image the test builds from Debian's packages (deploy/debian-base.sh). */
export const BASE_TAG = 'localhost/debian:bookworm-slim';

/**
 * The tag the image tests build the repository's Dockerfile as: one tag, so that a second test
 * file's `buildImage` finds every layer in podman's store (the image project runs its files one
 * at a time).
 */
export const IMAGE_TAG = 'localhost/browserdeck:test';

/** `podman …` with the global options; resolves with stdout, rejects with stderr in the message. */
export async function podman(args: readonly string[], timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await run('podman', [...PODMAN_GLOBAL, ...args], {
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`podman ${args.join(' ')} failed: ${(error as Error).message}\n${stderr ?? ''}`);
  }
}

/**
 * `podman run -d` of `image` as this machine kind runs it (`PODMAN_RUN`), named `name`, with the
 * host's network (loopback only: the tests' traffic stays on this machine), `volume` as `/data`,
 * `env`, and `extra` options (e.g. `BUBBLEWRAP_SETTINGS`).
 */
export async function runDetached(options: {
  name: string;
  image: string;
  volume: string;
  env: Record<string, string>;
  extra?: readonly string[];
}): Promise<void> {
  await podman([
    'run',
    '-d',
    '--name',
    options.name,
    ...PODMAN_RUN,
    '--network=host',
    '-v',
    `${options.volume}:/data`,
    ...Object.entries(options.env).flatMap(([key, value]) => ['-e', `${key}=${value}`]),
    ...(options.extra ?? []),
    options.image,
  ]);
}

/** What a container printed, stdout and stderr (`podman logs` keeps them apart). */
export async function containerLogs(name: string): Promise<string> {
  const { stdout, stderr } = await run('podman', [...PODMAN_GLOBAL, 'logs', name], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return `${stdout}${stderr}`;
}

/** Podman, runc and debootstrap, installed with apt-get when missing (as root). */
export async function ensurePodman(log: (line: string) => void): Promise<void> {
  const missing: string[] = [];
  if (!(await succeeds('podman', ['--version']))) missing.push('podman');
  if (!(await succeeds('runc', ['--version']))) missing.push('runc');
  if (!(await succeeds('debootstrap', ['--version']))) missing.push('debootstrap');
  if (missing.length > 0) await aptGetInstall(missing, 'the container image test', log);
  for (const command of ['podman', 'runc', 'debootstrap'])
    if (!(await succeeds(command, ['--version'])))
      throw new Error(`${command} is needed to build and run the image (apt-get install ${command})`);
}

/**
 * Runs a long command with its output teed to `log` line by line (a build shows progress in the
 * test's output), resolving when it exits 0.
 */
export function runLogged(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        tail = [...tail.slice(-40), line];
        if (/^(\[\d\/\d\] )?STEP |^I: (Retrieving|Base system)|^added \d+ packages|^COMMIT/.test(line))
          log(line);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0
        ? done()
        : fail(new Error(`${command} ${args.join(' ')} exited ${code}:\n${tail.join('\n')}`)),
    );
  });
}

/** The Debian 12 base from Debian's packages; kept (in podman's store and as a tarball) between runs. */
export async function ensureBaseImage(log: (line: string) => void): Promise<void> {
  const exists = await podman(['image', 'exists', BASE_TAG]).then(
    () => true,
    () => false,
  );
  if (exists) return;
  log(`building ${BASE_TAG} with deploy/debian-base.sh (debootstrap)…`);
  await runLogged(
    'sh',
    [join(ROOT, 'deploy/debian-base.sh'), BASE_TAG],
    { ...process.env, PODMAN: ['podman', ...PODMAN_GLOBAL].join(' ') },
    log,
  );
}

/**
 * Builds the repository's Dockerfile on the test base. A host behind a TLS-inspecting proxy trusts
 * that proxy's CA in /usr/local/share/ca-certificates: it goes in as the build secret `extra-ca`.
 */
export async function buildImage(tag: string, scratch: string, log: (line: string) => void): Promise<void> {
  const extraCa = localCaBundle(scratch);
  await buildOnBase(tag, ROOT, log, extraCa ? ['--secret', `id=extra-ca,src=${extraCa}`] : []);
}

/** Builds the Containerfile in `context` as `tag` on the test's Debian base (`BASE_IMAGE`), with `extra` flags. */
export async function buildOnBase(
  tag: string,
  context: string,
  log: (line: string) => void,
  extra: readonly string[] = [],
): Promise<void> {
  await runLogged(
    'podman',
    [
      ...PODMAN_GLOBAL,
      'build',
      '--format=docker',
      '--isolation=chroot',
      '--network=host',
      '--build-arg',
      `BASE_IMAGE=${BASE_TAG}`,
      ...extra,
      '-t',
      tag,
      context,
    ],
    process.env,
    log,
  );
}

function localCaBundle(scratch: string): string | null {
  const folder = '/usr/local/share/ca-certificates';
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.crt'));
  } catch {
    return null;
  }
  if (names.length === 0) return null;
  const bundle = join(scratch, 'extra-ca.pem');
  writeFileSync(bundle, names.map((name) => readFileSync(join(folder, name), 'utf8')).join('\n'));
  return bundle;
}

/** `--ulimit` values a container may set here: at most the host's hard limits. */
function ulimits(): string[] {
  const { nofile, nproc } = hostLimits();
  return ['--ulimit', `nofile=${nofile}:${nofile}`, '--ulimit', `nproc=${nproc}:${nproc}`];
}

/**
 * The open-file and process limits a container may set here: the host's hard limits, capped at
 * 65536 and 16384 (`PODMAN_RUN`'s `--ulimit`s; a `containers.conf`'s `default_ulimits` for
 * `podman kube play`, which has no such flag).
 */
export function hostLimits(): { nofile: number; nproc: number } {
  const hard = (name: 'nofile' | 'nproc', fallback: number): number => {
    try {
      const line = readFileSync('/proc/self/limits', 'utf8')
        .split('\n')
        .find((l) => l.startsWith(name === 'nofile' ? 'Max open files' : 'Max processes'));
      const value = line?.trim().split(/\s{2,}/)[2];
      return value && /^\d+$/.test(value) ? Number(value) : fallback;
    } catch {
      return fallback;
    }
  };
  return { nofile: Math.min(hard('nofile', 65_536), 65_536), nproc: Math.min(hard('nproc', 16_384), 16_384) };
}
