import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** One forbidden import found in a source file. */
export interface BoundaryViolation {
  file: string;
  specifier: string;
  rule: string;
}

const IMPORT_PATTERN =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** Every module specifier a TypeScript source imports or re-exports. */
export function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT_PATTERN)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
}

/**
 * The dependency rule of ARCHITECTURE.md:
 * - domain imports only itself (its testing folder may also import vitest);
 * - packages never import Inversify or the examples; adapters never import examples.
 */
export function checkFile(root: string, file: string, source: string): BoundaryViolation[] {
  const rel = relative(root, file).split(sep).join('/');
  const violations: BoundaryViolation[] = [];
  for (const specifier of importsOf(source)) {
    const report = (rule: string) => violations.push({ file: rel, specifier, rule });
    if (rel.startsWith('packages/domain/src/')) {
      const inTesting = rel.startsWith('packages/domain/src/testing/') || rel.endsWith('.test.ts');
      if (specifier.startsWith('.')) {
        const target = relative(join(root, 'packages/domain/src'), resolve(file, '..', specifier));
        if (target.startsWith('..')) report('domain may only import files inside packages/domain/src');
      } else if (!(inTesting && specifier === 'vitest')) {
        report('domain imports nothing outside itself (tests and testing/ may import vitest)');
      }
    }
    if (rel.startsWith('packages/') && (specifier === 'inversify' || specifier.startsWith('@inversifyjs/'))) {
      report('only examples/* may import Inversify; the library stays DI-agnostic');
    }
    if (
      rel.startsWith('packages/') &&
      (specifier.includes('examples/') || specifier.startsWith('@browserdeck/example'))
    ) {
      report('packages must not import the examples');
    }
  }
  return violations;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name)) yield path;
  }
}

/** Checks every source file under packages/. */
export function checkBoundaries(root: string): BoundaryViolation[] {
  return [...sourceFiles(join(root, 'packages'))].flatMap((file) =>
    checkFile(root, file, readFileSync(file, 'utf8')),
  );
}
