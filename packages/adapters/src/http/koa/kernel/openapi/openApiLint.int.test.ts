import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp, type TestAppOptions } from '@browserdeck/testing/adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from './OpenApiDocument.ts';
import { withMountPrefix } from './withMountPrefix.ts';

const ROOT = fileURLToPath(new URL('../../../../../../../', import.meta.url));

/** Redocly sends telemetry and checks for updates unless told not to; the lint runs offline. */
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

/** One finding of either linter, as printed when the test fails. */
interface Finding {
  linter: 'redocly' | 'spectral';
  file: string;
  severity: string;
  rule: string;
  where: string;
  message: string;
}

/** Runs a linter's CLI from node_modules on this Node; its exit code says nothing its JSON does not. */
function runCli(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules/.bin', bin), ...args],
      { cwd: ROOT, env: OFFLINE, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && stdout.trim() === '') reject(new Error(`${bin} failed: ${error.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** Redocly's findings on one file (given several, it prints one JSON report after another). */
async function redocly(file: string): Promise<Finding[]> {
  const stdout = await runCli('redocly', [
    'lint',
    file,
    '--config',
    join(ROOT, 'redocly.yaml'),
    '--format=json',
  ]);
  const report = JSON.parse(stdout) as {
    problems: Array<{
      ruleId: string;
      severity: string;
      message: string;
      location: Array<{ pointer: string }>;
    }>;
  };
  return report.problems.map((p) => ({
    linter: 'redocly',
    file,
    severity: p.severity,
    rule: p.ruleId,
    where: p.location[0]?.pointer ?? '',
    message: p.message,
  }));
}

/**
 * Findings accepted, each for a reason. Redocly's `no-ambiguous-paths` compares path templates only:
 * it cannot see that `{provider}` takes just the configured provider's name or `cloudbrowser` (an
 * enum) and `{project_id}` just a UUID, so `/v1/{provider}/projects/{project_id}/…` and
 * `/v1/projects/{project_id}/api-keys/{key_id}`, `…/extensions/{extension_id}`, `…/members/{user_id}`
 * or `…/invitations/{invitation_id}` (fixed by http-api.md §5, §6, §12 and SPEC §17) never match
 * the same request. Any other ambiguity is still reported.
 */
const PROVIDER_PATH = String.raw`\/v1\/\{provider\}\/projects\/\{project_id\}\/(sessions|runs|agents)`;
const PROJECT_ITEM_PATH = String.raw`\/v1\/projects\/\{project_id\}\/(api-keys\/\{key_id\}|extensions\/\{extension_id\}|members\/\{user_id\}|invitations\/\{invitation_id\})`;
const ACCEPTED: ReadonlyArray<{ rule: string; message: RegExp }> = [
  {
    rule: 'no-ambiguous-paths',
    message: new RegExp(
      String.raw`^Paths should resolve unambiguously\. Found two ambiguous paths: ` +
        `(\`${PROVIDER_PATH}\` and \`${PROJECT_ITEM_PATH}\`|\`${PROJECT_ITEM_PATH}\` and \`${PROVIDER_PATH}\`)` +
        String.raw`\.$`,
    ),
  },
];

const SPECTRAL_SEVERITIES = ['error', 'warn', 'info', 'hint'];

async function spectral(files: string[], output: string): Promise<Finding[]> {
  await runCli('spectral', [
    'lint',
    ...files,
    '--ruleset',
    join(ROOT, '.spectral.yaml'),
    '--format',
    'json',
    '--output',
    output,
    '--quiet',
  ]);
  const results = JSON.parse(await readFile(output, 'utf8')) as Array<{
    code: string;
    severity: number;
    message: string;
    path: string[];
    source: string;
  }>;
  return results.map((r) => ({
    linter: 'spectral',
    file: r.source,
    severity: SPECTRAL_SEVERITIES[r.severity] ?? String(r.severity),
    rule: r.code,
    where: r.path.join('.'),
    message: r.message,
  }));
}

async function servedDocument(options?: TestAppOptions): Promise<OpenApiDocument> {
  const t: TestApp = await createTestApp(options);
  try {
    const res = await t.request('/openapi.json');
    expect(res.status).toBe(200);
    return (await res.json()) as OpenApiDocument;
  } finally {
    await t.close();
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'browserdeck-openapi-lint-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the OpenAPI document under Redocly and Spectral', () => {
  it('has no error and no warning, at the root and under a prefix with /metrics behind a token', async () => {
    const documents = {
      'root.json': await servedDocument(),
      'mounted.json': withMountPrefix(
        await servedDocument({
          overrides: { http: { metricsEndpoint: { token: 'metrics-token-0123456789' } } },
        }),
        '/browserdeck',
      ),
    };
    const files = await Promise.all(
      Object.entries(documents).map(async ([name, document]) => {
        const file = join(dir, name);
        await writeFile(file, JSON.stringify(document, null, 2));
        return file;
      }),
    );
    const findings = [
      ...(await Promise.all(files.map((file) => redocly(file)))).flat(),
      ...(await spectral(files, join(dir, 'spectral.json'))),
    ];
    const reported = findings.filter(
      (f) =>
        (f.severity === 'error' || f.severity === 'warn') &&
        !ACCEPTED.some((a) => a.rule === f.rule && a.message.test(f.message)),
    );
    expect(reported, JSON.stringify(reported, null, 2)).toEqual([]);
  }, 30_000);
});
