import { describe, expect, it } from 'vitest';
import { checkBoundaries, checkFile, importsOf } from './checkBoundaries.ts';

const root = '/repo';
const rules = (file: string, source: string) =>
  checkFile(root, `${root}/${file}`, source).map((v) => v.specifier);

describe('dependency boundaries', () => {
  it('finds static, type-only, re-export, side-effect and dynamic imports', () => {
    const src = `import a from 'a';\nimport type { B } from "b";\nexport * from './c.ts';\nimport 'd';\nconst e = await import('e');\nexport { f } from 'f';`;
    expect(importsOf(src)).toEqual(['a', 'b', './c.ts', 'd', 'e', 'f']);
  });

  it('refuses node:, npm packages and escapes from the domain', () => {
    expect(rules('packages/domain/src/projects/X.ts', `import { x } from 'node:crypto';`)).toEqual([
      'node:crypto',
    ]);
    expect(rules('packages/domain/src/projects/X.ts', `import { z } from 'zod';`)).toEqual(['zod']);
    expect(
      rules('packages/domain/src/projects/X.ts', `import { A } from '../../../adapters/src/a.ts';`),
    ).toEqual(['../../../adapters/src/a.ts']);
    expect(rules('packages/domain/src/projects/X.ts', `import { P } from '../shared/Clock.ts';`)).toEqual([]);
  });

  it('lets domain tests and testing/ import vitest, but not the rest of the domain', () => {
    expect(rules('packages/domain/src/testing/S.ts', `import { it } from 'vitest';`)).toEqual([]);
    expect(rules('packages/domain/src/projects/P.test.ts', `import { it } from 'vitest';`)).toEqual([]);
    expect(rules('packages/domain/src/projects/P.ts', `import { it } from 'vitest';`)).toEqual(['vitest']);
  });

  it('keeps Inversify and the examples out of the packages', () => {
    expect(rules('packages/adapters/src/x.ts', `import { Container } from 'inversify';`)).toEqual([
      'inversify',
    ]);
    expect(
      rules('packages/adapters/src/x.ts', `import { c } from '@browserdeck/example-server';`),
    ).toHaveLength(1);
    expect(rules('examples/server/src/x.ts', `import { Container } from 'inversify';`)).toEqual([]);
  });

  it('passes on this repository', () => {
    expect(checkBoundaries(process.cwd())).toEqual([]);
  });
});
