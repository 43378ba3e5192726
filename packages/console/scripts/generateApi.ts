/**
 * `npm run generate:api -w @browserdeck/console`: regenerates the console's API types
 * (`src/api/openapi.ts`) from the API's OpenAPI document. Run it after changing a route or a schema
 * of the HTTP adapter; `openapi.stale.int.test.ts` fails until it has run.
 */
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { API_TYPES_FILE, buildApiTypes } from './buildApiTypes.ts';

await writeFile(API_TYPES_FILE, await buildApiTypes());
console.log(`Wrote ${relative(process.cwd(), API_TYPES_FILE)}`);
