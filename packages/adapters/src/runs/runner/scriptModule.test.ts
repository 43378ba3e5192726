import { describe, expect, it } from 'vitest';
import { scriptModuleSource } from './child/scriptModule.mts';

const MARK = "globalThis[Symbol.for('browserdeck.scriptEvaluating')]?.();";

describe('scriptModuleSource', () => {
  it('makes a script without `export default` the body of the default async function, on its own lines', () => {
    expect(scriptModuleSource('await page.goto(input.url);\nreturn await page.title();')).toBe(
      `${MARK}export default async function ({ browser, context, page, input, env, log }) {await page.goto(input.url);\nreturn await page.title();\n}\n`,
    );
  });

  it('keeps a module as it is, the mark first on its first line (after a hashbang)', () => {
    const module = "import { devices } from 'playwright-core';\nexport default async () => 1;";
    expect(scriptModuleSource(module)).toBe(MARK + module);
    expect(scriptModuleSource('#!/usr/bin/env node\nexport default () => 1;')).toBe(
      `#!/usr/bin/env node\n${MARK}export default () => 1;`,
    );
    expect(scriptModuleSource('export  default function main() {}')).toBe(
      `${MARK}export  default function main() {}`,
    );
  });
});
