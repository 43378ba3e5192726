import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMikroOrm } from '../packages/adapters/src/persistence/mikro-orm/createMikroOrm.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';

/**
 * The published packages as a consumer gets them (the README's install from tarballs): domain,
 * adapters and the test kit are packed (`npm pack`, which builds first), checked by publint and
 * arethetypeswrong, installed into a scratch app in a fresh folder outside the workspace with the
 * peers a Browserbase + Supabase + PostgreSQL host declares, typechecked there, and run: the host in
 * `test/packedHost/host.ts` serves the API, which this test drives over HTTP, and vitest runs
 * `test/packedHost/kit.test.ts` (a contract suite and the HTTP test app) on the packed kit.
 * Installs come from the npm cache first (`--prefer-offline`); the npm registry is the only network.
 */

const repo = resolve(import.meta.dirname, '..');
const bin = join(repo, 'node_modules', '.bin');
const PACKAGES = ['domain', 'adapters', 'testing'] as const;
type PackageName = (typeof PACKAGES)[number];

interface PackedFile {
  path: string;
}
interface Packed {
  name: string;
  filename: string;
  files: PackedFile[];
}
interface Manifest {
  exports: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  engines?: { node?: string };
}

/** The test kit ships its kits and the recorded Browserbase fixtures (`./browserbase/fixtures/*`); the others ship no test support at all. */
function isTestOnly(name: PackageName, path: string): boolean {
  if (/\.test\.|\/fuzz\//.test(path)) return true;
  return name !== 'testing' && /\/fixtures\/|\/testing\/|TestKit\.ts$/.test(path);
}

/** Environment for npm and the tools: Node 24 and the repo's binaries first; nothing inherited from an outer npm run. */
function toolEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      /^npm_(lifecycle|package|command|config_(local_prefix|workspaces?|include_workspace_root))/i.test(key)
    )
      continue;
    env[key] = value;
  }
  return { ...env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, NO_COLOR: '1', ...extra };
}

/** Runs a command; a non-zero exit is returned, not thrown, with everything it printed. */
function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ code: number; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? toolEnv(),
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const signal = error?.signal ?? null;
        done({ code, signal, stdout, stderr: error && code === 1 && !stderr ? String(error) : stderr });
      },
    );
  });
}

/** Runs a command that must succeed; its output is in the error otherwise. */
async function runOk(...call: Parameters<typeof run>): Promise<string> {
  const result = await run(...call);
  if (result.code !== 0) {
    throw new Error(
      `${call[0]} ${call[1].join(' ')} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/** This machine's system Node when it is below the packages' `engines` (Debian's is 20), else undefined. */
function olderSystemNode(range: string): { node: string; version: string } | undefined {
  const node = '/usr/bin/node';
  if (!existsSync(node)) return undefined;
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  const [wantMajor = 0, wantMinor = 0, wantPatch = 0] = range.replace(/^>=/, '').split('.').map(Number);
  return (major - wantMajor || minor - wantMinor || patch - wantPatch) < 0 ? { node, version } : undefined;
}

describe('the packed packages, installed and run as a consumer would', () => {
  let scratch: string;
  let app: string;
  let database: TestDatabase;
  const packed = new Map<PackageName, Packed>();
  const manifests = new Map<PackageName, Manifest>();

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'browserdeck-packed-'));
    expect(relative(repo, scratch).startsWith('..')).toBe(true);
    const packs = join(scratch, 'packs');
    await mkdir(packs);
    const json = await runOk(
      'npm',
      [
        'pack',
        '--json',
        '--pack-destination',
        packs,
        ...PACKAGES.flatMap((p) => ['--workspace', `packages/${p}`]),
      ],
      { cwd: repo },
    );
    for (const entry of JSON.parse(json) as Packed[]) {
      const name = entry.name.replace('@browserdeck/', '') as PackageName;
      packed.set(name, entry);
      manifests.set(name, JSON.parse(await readFile(join(repo, 'packages', name, 'package.json'), 'utf8')));
    }

    // What a Browserbase + Supabase + PostgreSQL host installs: the three packages, the required
    // peers, the optional peers it uses (PostgreSQL driver, Browserbase SDK, nock for the kit's
    // vendor fakes, vitest for its suites), and @types/node for its own typecheck. No SQLite driver,
    // no Chromium package, no playwright-core.
    const peer = (name: string) => {
      const range =
        manifests.get('adapters')?.peerDependencies?.[name] ??
        manifests.get('testing')?.peerDependencies?.[name];
      if (!range)
        throw new Error(`neither @browserdeck/adapters nor @browserdeck/testing declares a peer ${name}`);
      return range;
    };
    app = join(scratch, 'app');
    await mkdir(app);
    const rootManifest = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify(
        {
          name: 'browserdeck-scratch-host',
          private: true,
          type: 'module',
          dependencies: {
            '@browserdeck/domain': `file:${join(packs, packed.get('domain')?.filename ?? '')}`,
            '@browserdeck/adapters': `file:${join(packs, packed.get('adapters')?.filename ?? '')}`,
            '@browserdeck/testing': `file:${join(packs, packed.get('testing')?.filename ?? '')}`,
            ...Object.fromEntries(
              [
                'koa',
                '@koa/router',
                '@mikro-orm/core',
                '@mikro-orm/sql',
                '@mikro-orm/migrations',
                '@mikro-orm/postgresql',
                '@browserbasehq/sdk',
                'nock',
                'vitest',
              ].map((name) => [name, peer(name)]),
            ),
          },
          devDependencies: { '@types/node': rootManifest.devDependencies['@types/node'] },
        },
        null,
        2,
      ),
    );
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2024',
          lib: ['es2024'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          // The packages' declarations are checked too, as a strict host would.
          skipLibCheck: false,
          verbatimModuleSyntax: true,
          erasableSyntaxOnly: true,
          types: ['node'],
        },
        files: ['host.ts', 'kit.test.ts'],
      }),
    );
    for (const file of ['host.ts', 'kit.test.ts']) {
      await writeFile(join(app, file), await readFile(join(repo, 'test/packedHost', file)));
    }
    await runOk('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-update-notifier'], {
      cwd: app,
      timeoutMs: 180_000,
    });
    database = await createTestDatabase();
  }, 300_000);

  afterAll(async () => {
    await database?.drop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  describe.each(PACKAGES)('@browserdeck/%s', (name) => {
    const files = () => new Set(packed.get(name)?.files.map((f) => f.path));

    it('packs dist, its sources without tests, README, LICENSE and package.json, and nothing test-only', async () => {
      const paths = files();
      for (const required of ['package.json', 'README.md', 'LICENSE']) expect(paths).toContain(required);
      const unexpected = [...paths].filter(
        (path) =>
          !['package.json', 'README.md', 'LICENSE'].includes(path) &&
          !path.startsWith('dist/') &&
          !path.startsWith('src/'),
      );
      expect(unexpected).toEqual([]);
      expect([...paths].filter((path) => isTestOnly(name, path))).toEqual([]);
      // Every source that ships is built, and every built module has its source (for the maps). A
      // hand-written declaration (`*.d.ts`, for a dependency without types) ships for the source
      // condition and has nothing to build.
      const sources = [...paths].filter(
        (p) => p.startsWith('src/') && p.endsWith('.ts') && !p.endsWith('.d.ts'),
      );
      const built = [...paths].filter((p) => p.startsWith('dist/') && p.endsWith('.js'));
      expect(sources.map((p) => p.replace(/^src\/(.*)\.ts$/, 'dist/$1.js')).sort()).toEqual(built.sort());
      expect(built.filter((p) => !paths.has(p.replace(/\.js$/, '.d.ts')))).toEqual([]);
      // The same LICENSE as the repository's.
      const installed = join(app, 'node_modules', '@browserdeck', name);
      expect(await readFile(join(installed, 'LICENSE'), 'utf8')).toBe(
        await readFile(join(repo, 'LICENSE'), 'utf8'),
      );
    });

    it('has every export target in the tarball, with source, types and default conditions', () => {
      const paths = files();
      const manifest = manifests.get(name);
      expect(manifest?.engines?.node).toMatch(/^>=\d+/);
      const missing: string[] = [];
      for (const [subpath, target] of Object.entries(manifest?.exports ?? {})) {
        if (subpath === './package.json') continue;
        if (typeof target === 'string' && subpath.endsWith('/*')) {
          // A pattern of data files (the kit's JSON fixtures): it matches some, all in the tarball.
          const [prefix = '', suffix = ''] = target.replace(/^\.\//, '').split('*');
          const matched = [...paths].filter((path) => path.startsWith(prefix) && path.endsWith(suffix));
          expect(matched.length, `${subpath} → ${target}`).toBeGreaterThan(0);
          continue;
        }
        expect(typeof target === 'object' && Object.keys(target)).toEqual(['source', 'types', 'default']);
        for (const file of Object.values(target as Record<string, string>)) {
          if (!paths.has(file.replace(/^\.\//, ''))) missing.push(`${subpath} → ${file}`);
        }
      }
      expect(missing).toEqual([]);
    });

    it('passes publint --strict', async () => {
      const tarball = join(scratch, 'packs', packed.get(name)?.filename ?? '');
      const result = await run(join(bin, 'publint'), ['run', tarball, '--strict'], { cwd: scratch });
      expect(result, `${result.stdout}\n${result.stderr}`).toMatchObject({ code: 0 });
      expect(result.stdout).toContain('All good!');
    });

    it('passes arethetypeswrong with the esm-only profile', async () => {
      const tarball = join(scratch, 'packs', packed.get(name)?.filename ?? '');
      const result = await run(join(bin, 'attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], {
        cwd: scratch,
      });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      // The profile leaves out CommonJS (`node16-cjs`) and pre-exports (`node10`) resolution.
      const { analysis } = JSON.parse(result.stdout) as {
        analysis: { problems: Array<{ kind: string; entrypoint?: string; resolutionKind?: string }> };
      };
      const problems = analysis.problems.filter(
        (problem) => !['node10', 'node16-cjs'].includes(problem.resolutionKind ?? ''),
      );
      expect(problems).toEqual([]);
    });
  });

  it('installs without the optional peers the host does not use', () => {
    const modules = join(app, 'node_modules');
    const absent = ['@mikro-orm/sqlite', 'better-sqlite3', '@sparticuz/chromium'];
    expect(absent.filter((name) => existsSync(join(modules, name)))).toEqual([]);
    expect(existsSync(join(modules, '@mikro-orm/postgresql'))).toBe(true);
    // Run scripts import playwright-core in their own processes (http-api.md §11): a dependency of
    // the adapters whatever the browser provider.
    expect(existsSync(join(modules, 'playwright-core'))).toBe(true);
  });

  it("typechecks the host app (tsc, module nodenext, the packages' declarations included)", async () => {
    const result = await run(join(bin, 'tsc'), ['-p', app], { cwd: app });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('runs a contract suite and the HTTP test app from the packed kit (vitest in the host app)', async () => {
    const reportFile = join(scratch, 'kit-report.json');
    const result = await run(
      join(app, 'node_modules', '.bin', 'vitest'),
      ['run', '--reporter=json', `--outputFile=${reportFile}`],
      { cwd: app, timeoutMs: 180_000 },
    );
    expect(existsSync(reportFile), `${result.stdout}\n${result.stderr}`).toBe(true);
    const report = JSON.parse(await readFile(reportFile, 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }>;
    };
    const names = report.testResults.flatMap((file) => file.assertionResults.map((test) => test.fullName));
    expect(report.numFailedTests, result.stdout + result.stderr).toBe(0);
    expect(names).toContain('serves the real HTTP API over in-memory ports');
    expect(names.filter((name) => name.startsWith('ProjectRepository contract:')).length).toBeGreaterThan(3);
    expect(report.numPassedTests).toBe(names.length);
    expect(result.code).toBe(0);
  });

  const engines = JSON.parse(readFileSync(join(repo, 'packages/adapters/package.json'), 'utf8')).engines.node;
  const older = olderSystemNode(engines);
  it.skipIf(!older)(
    'on a Node below engines, importing @browserdeck/adapters fails with one message instead of a crash',
    async () => {
      const { node, version } = older!;
      // What segfaulted before the guard: the import, then the default SQLite database.
      const script =
        "const { createBrowserdeck } = await import('@browserdeck/adapters'); await createBrowserdeck({ dataDir: 'data-old-node' });";
      const result = await run(node, ['--input-type=module', '-e', script], { cwd: app, timeoutMs: 30_000 });
      expect(result.signal).toBeNull();
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `UnsupportedNodeVersion: @browserdeck/adapters needs Node ${engines}; this is Node ${version} (${node}). ` +
          'Install Node 24 (`nvm install 24 && nvm use 24`',
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it('serves the API from the host app: health, sign-up and sign-in, a project, a Browserbase session stored in PostgreSQL', async () => {
    const loads = join(scratch, 'loads.txt');
    const host = await startHost(app, {
      DATABASE_URL: database.url,
      DATA_DIR: join(scratch, 'data'),
      RECORD_LOADS_FILE: loads,
    });
    try {
      const call = async (method: string, path: string, body?: unknown, token?: string) => {
        const res = await fetch(`http://127.0.0.1:${host.port}${path}`, {
          method,
          headers: {
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null, text };
      };

      expect(await call('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
      const credentials = { email: 'packed@example.com', password: 'a long enough password' };
      const signUp = await call('POST', '/v1/auth/signup', credentials);
      expect(signUp, signUp.text).toMatchObject({
        status: 201,
        body: { user: { email: credentials.email } },
      });
      const signIn = await call('POST', '/v1/auth/signin', credentials);
      expect(signIn, signIn.text).toMatchObject({ status: 200, body: { token_type: 'bearer' } });
      const token = signIn.body.access_token as string;

      const project = await call('POST', '/v1/projects', { name: 'Packed host' }, token);
      expect(project, project.text).toMatchObject({ status: 201, body: { name: 'Packed host' } });
      const sessions = `/v1/browserbase/projects/${project.body.id}/sessions`;
      const created = await call('POST', sessions, {}, token);
      expect(created, created.text).toMatchObject({
        status: 201,
        body: { provider: 'browserbase', status: 'RUNNING', providerProjectId: 'packed-host-project' },
      });
      const read = await call('GET', `${sessions}/${created.body.id}`, undefined, token);
      expect(read, read.text).toMatchObject({
        status: 200,
        body: { id: created.body.id, status: 'RUNNING' },
      });
    } finally {
      await host.stop();
    }
    expect(host.exit(), host.output()).toEqual({ code: 0, signal: null });

    // What the host stored, read through a connection of the test's own.
    const orm = await createMikroOrm({ databaseUrl: database.url });
    try {
      const rows = await orm.em.getConnection().execute('select provider, status from browser_sessions');
      expect(rows).toEqual([{ provider: 'browserbase', status: 'RUNNING' }]);
    } finally {
      await orm.close(true);
    }

    // A Browserbase + Supabase + PostgreSQL host loads none of the other adapters' modules.
    const loaded = (await readFile(loads, 'utf8')).split('\n');
    const loadedAny = (part: string) => loaded.some((url) => url.includes(part));
    const unwanted = [
      'better-sqlite3',
      '/@mikro-orm/sqlite/',
      '/@node-rs/argon2',
      '/@sparticuz/chromium/',
      '/proxy-chain/',
      '/dist/browsers/local-chromium/',
      '/dist/identity/local/',
    ];
    expect(unwanted.filter(loadedAny)).toEqual([]);
    for (const wanted of [
      '/@mikro-orm/postgresql/',
      '/dist/browsers/browserbase/',
      '/dist/identity/supabase/',
      '/@browserbasehq/sdk/',
    ]) {
      expect(loadedAny(wanted), `${wanted} among the loaded modules`).toBe(true);
    }
  });
});

/** The scratch host, running: its port, and how to stop it (SIGTERM) and read what it printed. */
interface RunningHost {
  port: number;
  stop(): Promise<void>;
  exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  output(): string;
}

/**
 * Starts `host.ts` with Node's type stripping, recording every module it loads. `PACKED_HOST_NODE`
 * names another Node binary to run it on, e.g. the lowest version `engines` claims (22.17.0).
 */
async function startHost(app: string, env: Record<string, string>): Promise<RunningHost> {
  const child: ChildProcess = spawn(
    process.env.PACKED_HOST_NODE ?? process.execPath,
    // Type stripping is on by default from Node 22.18; the flag turns it on for 22.17.
    ['--experimental-strip-types', '--import', join(repo, 'test/packedHost/recordLoads.ts'), 'host.ts'],
    { cwd: app, env: toolEnv(env), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      done();
    }),
  );
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the host did not start in 60 s:\n${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^listening (\d+)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        done(Number(match[1]));
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      fail(new Error(`the host exited (${JSON.stringify(exit)}) before it listened:\n${output}`));
    });
  });
  return {
    port,
    stop: async () => {
      if (!exit) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
    exit: () => exit,
    output: () => output,
  };
}
