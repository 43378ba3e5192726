import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');

/**
 * A miniature of the repository: each file makes one kind of import, and `expected` lists the
 * rules of `.dependency-cruiser.cjs` it breaks (none for an allowed one).
 */
const FILES: Record<string, { source: string; expected?: string[] }> = {
  // domain
  'packages/domain/src/index.ts': { source: `export * from './projects/Project.ts';` },
  'packages/domain/src/shared/Clock.ts': { source: 'export interface Clock { now(): Date }' },
  'packages/domain/src/projects/Project.ts': {
    source: `import type { Clock } from '../shared/Clock.ts';\nexport type Project = { clock: Clock };`,
  },
  'packages/domain/src/projects/usesNode.ts': {
    source: `import { randomUUID } from 'node:crypto';\nexport const id = randomUUID;`,
    expected: ['domain-imports-only-itself'],
  },
  'packages/domain/src/projects/usesZodType.ts': {
    source: `import type { Schema } from 'zod';\nexport type S = Schema;`,
    expected: ['domain-imports-only-itself'],
  },
  'packages/domain/src/projects/loadsZod.ts': {
    source: `export const load = () => import('zod');`,
    expected: ['domain-imports-only-itself'],
  },
  'packages/domain/src/projects/usesVitest.ts': {
    source: `export { it } from 'vitest';`,
    expected: ['domain-imports-only-itself'],
  },
  'packages/domain/src/projects/escapes.ts': {
    source: `export * from '../../../adapters/src/index.ts';`,
    expected: ['domain-imports-only-itself', 'workspaces-import-each-other-by-name'],
  },
  'packages/domain/src/projects/Project.test.ts': {
    source: `import { it } from 'vitest';\nimport '@browserdeck/testing';\nit.todo('x');`,
  },
  'packages/domain/src/projects/Adapters.test.ts': {
    source: `import '@browserdeck/adapters';`,
    expected: ['domain-tests-import-only-itself-its-kit-and-vitest'],
  },
  // the testing package: its main entry is the domain's kit
  'packages/testing/src/index.ts': {
    source: `import { it } from 'vitest';\nexport const todo = it.todo;\nexport * from './domain/InMemory.ts';`,
  },
  'packages/testing/src/domain/InMemory.ts': {
    source: `import type { Project } from '@browserdeck/domain';\nexport type P = Project;`,
  },
  'packages/testing/src/domain/usesZod.ts': {
    source: `import 'zod';`,
    expected: ['the-domain-kit-imports-only-the-domain-and-vitest'],
  },
  'packages/testing/src/adapters/createTestApp.ts': {
    source: `import '@browserdeck/testing';\nimport '@browserdeck/adapters';\nimport 'zod';`,
  },
  'packages/testing/src/adapters/deepKit.ts': {
    source: `import '../../../domain/src/index.ts';`,
    expected: ['workspaces-import-each-other-by-name'],
  },
  // adapters
  'packages/adapters/src/index.ts': {
    source: `import type { Project } from '@browserdeck/domain';\nimport 'zod';\nimport 'node:http';\nexport type P = Project;`,
  },
  'packages/adapters/src/usesInversify.ts': {
    source: `import { Container } from 'inversify';\nexport const c = Container;`,
    expected: ['only-examples-import-inversify'],
  },
  'packages/adapters/src/deepDomain.ts': {
    source: `export * from '../../domain/src/projects/Project.ts';`,
    expected: ['workspaces-import-each-other-by-name'],
  },
  'packages/adapters/src/usesServer.ts': {
    source: `import '@browserdeck/example-server';`,
    expected: ['nothing-imports-the-examples'],
  },
  'packages/adapters/src/usesTestHelper.ts': {
    source: `import '../../../test/helper.ts';`,
    expected: ['shipped-code-imports-no-tests-or-tools'],
  },
  'packages/adapters/src/usesBench.ts': {
    source: `import '../../../bench/run.ts';`,
    expected: ['shipped-code-imports-no-tests-or-tools'],
  },
  'packages/adapters/src/store.int.test.ts': { source: `import '../../../test/helper.ts';` },
  'packages/adapters/src/usesDomainKit.ts': {
    source: `import '@browserdeck/testing';`,
    expected: ['shipped-code-imports-no-test-kits'],
  },
  'packages/adapters/src/usesOwnKit.ts': {
    source: `import './testing/fakeApi.ts';`,
    expected: ['shipped-code-imports-no-test-kits'],
  },
  'packages/adapters/src/testing/fakeApi.ts': { source: `import '@browserdeck/testing';` },
  'packages/adapters/src/fuzz/FuzzWorld.ts': { source: `import '../testing/fakeApi.ts';` },
  'packages/adapters/src/cycleA.ts': { source: `import './cycleB.ts';`, expected: ['no-circular'] },
  'packages/adapters/src/cycleB.ts': { source: `import './cycleA.ts';` },
  'packages/adapters/src/missing.ts': {
    source: `import './nowhere.ts';`,
    expected: ['no-unresolvable-imports'],
  },
  // the HTTP adapter: features use the kernel, never the other way round
  'packages/adapters/src/http/koa/kernel/errors/ProblemSchema.ts': { source: `import 'zod';` },
  'packages/adapters/src/http/koa/api/sessions/sessionSchemas.ts': {
    source: `import '../../kernel/errors/ProblemSchema.ts';`,
  },
  'packages/adapters/src/http/koa/routeTable.ts': { source: `import './api/sessions/sessionSchemas.ts';` },
  'packages/adapters/src/http/koa/kernel/openapi/componentSchemas.ts': {
    source: `import '../../api/sessions/sessionSchemas.ts';`,
    expected: ['http-kernel-knows-no-feature'],
  },
  'packages/adapters/src/http/koa/kernel/routing/buildTable.ts': {
    source: `import '../../routeTable.ts';`,
    expected: ['http-kernel-knows-no-feature'],
  },
  'packages/adapters/src/http/koa/kernel/openapi/document.int.test.ts': {
    source: `import '../../routeTable.ts';`,
  },
  // providers expose capabilities; the HTTP adapter serves them, never the other way round
  'packages/adapters/src/browsers/local/LocalProvider.ts': {
    source: `import '../../http/koa/kernel/errors/ProblemSchema.ts';`,
    expected: ['providers-know-no-http'],
  },
  'packages/adapters/src/browsers/local/testing/providerKit.ts': {
    source: `import '../../../http/koa/routeTable.ts';`,
    expected: ['providers-know-no-http'],
  },
  'packages/adapters/src/browsers/local/LocalProvider.int.test.ts': {
    source: `import '../../http/koa/routeTable.ts';`,
  },
  'packages/adapters/src/http/koa/api/sessions/servesProvider.ts': {
    source: `import '../../../../browsers/local/LocalProvider.ts';`,
  },
  // examples, tests, benchmarks, scripts
  'examples/server/src/main.ts': {
    source: `import 'inversify';\nimport '@browserdeck/adapters';\nimport '@browserdeck/domain';`,
  },
  'examples/embedded/src/main.ts': {
    source: `import '../../server/src/main.ts';`,
    expected: ['examples-do-not-import-each-other', 'workspaces-import-each-other-by-name'],
  },
  'test/helper.ts': { source: 'export const helper = 1;' },
  'test/server.int.test.ts': {
    source: `import '../examples/server/src/main.ts';\nimport '@browserdeck/testing';`,
  },
  'bench/run.ts': {
    source: `import '../examples/server/src/main.ts';`,
    expected: ['nothing-imports-the-examples'],
  },
  'bench/publicApi.ts': {
    source: `import '@browserdeck/adapters';\nimport '@browserdeck/testing';\nimport '../test/helper.ts';`,
  },
  'bench/entryByPath.ts': {
    source: `import '../packages/adapters/src/index.ts';`,
    expected: ['bench-imports-workspaces-by-public-entry-point'],
  },
  'bench/internalByPath.ts': {
    source: `import '../packages/domain/src/projects/Project.ts';`,
    expected: ['bench-imports-workspaces-by-public-entry-point'],
  },
  'bench/internalByName.ts': {
    source: `import '@browserdeck/domain/src/projects/Project.ts';`,
    expected: ['no-unresolvable-imports'],
  },
  'scripts/usesInversify.ts': {
    source: `import 'inversify';`,
    expected: ['only-examples-import-inversify'],
  },
};

const PACKAGES: Record<string, object> = {
  'packages/domain': {
    name: '@browserdeck/domain',
    exports: { '.': './src/index.ts' },
  },
  'packages/testing': { name: '@browserdeck/testing', exports: { '.': './src/index.ts' } },
  'packages/adapters': { name: '@browserdeck/adapters', exports: { '.': './src/index.ts' } },
  'examples/server': { name: '@browserdeck/example-server', exports: { '.': './src/main.ts' } },
  'node_modules/zod': { name: 'zod', main: 'index.js' },
  'node_modules/vitest': { name: 'vitest', main: 'index.js' },
  'node_modules/inversify': { name: 'inversify', main: 'index.js' },
};

let fixture: string;

beforeAll(async () => {
  fixture = await mkdtemp(join(tmpdir(), 'browserdeck-depcruise-'));
  for (const [path, { source }] of Object.entries(FILES)) await write(path, `${source}\n`);
  for (const [dir, manifest] of Object.entries(PACKAGES)) {
    await write(`${dir}/package.json`, JSON.stringify(manifest));
    if (dir.startsWith('node_modules/')) await write(`${dir}/index.js`, 'module.exports = {};\n');
    else {
      const link = join(fixture, 'node_modules', (manifest as { name: string }).name);
      await mkdir(dirname(link), { recursive: true });
      await symlink(join(fixture, dir), link, 'dir');
    }
  }
});

afterAll(async () => {
  await rm(fixture, { recursive: true, force: true });
});

async function write(path: string, content: string): Promise<void> {
  await mkdir(dirname(join(fixture, path)), { recursive: true });
  await writeFile(join(fixture, path), content);
}

interface Violation {
  rule: { name: string };
  from: string;
}

describe('.dependency-cruiser.cjs', () => {
  it('reports every forbidden import, each under its rule, and nothing that is allowed', async () => {
    const bin = await realpath(join(ROOT, 'node_modules/.bin/depcruise'));
    const args = [bin, ...['packages', 'examples', 'test', 'bench', 'scripts']];
    args.push('--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json');
    const { stdout } = await run(process.execPath, args, { cwd: fixture, maxBuffer: 16 * 1024 * 1024 }).catch(
      // It exits non-zero on errors, which is the point: read its report anyway.
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    const { violations } = JSON.parse(stdout).summary as { violations: Violation[] };
    const found = violations.map((v) => `${v.from}: ${v.rule.name}`).sort();
    const expected = Object.entries(FILES)
      .flatMap(([path, { expected = [] }]) => expected.map((rule) => `${path}: ${rule}`))
      .sort();
    expect(found).toEqual(expected);
  });

  it('fails the command when an import is forbidden', async () => {
    const bin = await realpath(join(ROOT, 'node_modules/.bin/depcruise'));
    const failure = await run(
      process.execPath,
      [bin, 'packages/domain', '--config', join(ROOT, '.dependency-cruiser.cjs')],
      { cwd: fixture },
    ).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failure?.code).toBeGreaterThan(0);
    expect(failure?.stdout).toContain(
      'error domain-imports-only-itself: packages/domain/src/projects/usesNode.ts → crypto',
    );
  });
});
