import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { createTestApp } from '@browserdeck/testing/adapters';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/** Where the console keeps the generated types, committed (`npm run generate:api` rewrites it). */
export const API_TYPES_FILE = join(import.meta.dirname, '..', 'src', 'api', 'openapi.ts');

/** The repository root: biome reads its configuration (`biome.json`) from there. */
const REPOSITORY = join(import.meta.dirname, '..', '..', '..');

/** What a reader of the generated file is told (under openapi-typescript's own header). */
const HEADER = `${COMMENT_HEADER.trimEnd()}
/* Generated from the API's OpenAPI document (GET /openapi.json): run
 * \`npm run generate:api -w @browserdeck/console\` after changing a route or a schema; a test fails
 * while this file is stale (openapi.stale.int.test.ts). */

`;

/**
 * The API's OpenAPI document, exactly as `GET /openapi.json` answers it: the real route table in the
 * test app (in-memory ports), asked over 127.0.0.1. The document depends on no data, only on the
 * routes and their schemas; the `{provider}` parameter lists the test app's provider besides the
 * `cloudbrowser` alias the console uses.
 */
export async function fetchOpenApiDocument(): Promise<OpenAPI3> {
  const app = await createTestApp();
  try {
    const response = await app.request('/openapi.json');
    if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
    return (await response.json()) as OpenAPI3;
  } finally {
    await app.close();
  }
}

/** Formats (and lints, with its safe fixes) TypeScript source as `biome check --write` would at `file`. */
function formatWithBiome(source: string, file: string): string {
  const require = createRequire(import.meta.url);
  const biomePackage = require.resolve('@biomejs/biome/package.json');
  const biome = join(dirname(biomePackage), 'bin', 'biome');
  const result = spawnSync(
    process.execPath,
    [biome, 'check', '--write', `--stdin-file-path=${relative(REPOSITORY, file)}`],
    { cwd: REPOSITORY, input: source, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`biome refused the generated types:\n${result.stderr}`);
  return result.stdout;
}

/**
 * The console's API types: openapi-typescript (v7, Node API) over the API's OpenAPI document,
 * formatted by biome, so the committed file is byte for byte what this returns.
 */
export async function buildApiTypes(): Promise<string> {
  const document = await fetchOpenApiDocument();
  const ast = await openapiTS(document, { silent: true });
  return formatWithBiome(`${HEADER}${astToString(ast)}`, API_TYPES_FILE);
}
