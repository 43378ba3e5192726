import { registerHooks } from 'node:module';

/** The global a script's module calls first thing, so a load error tells parsing from running. */
const EVALUATING = Symbol.for('browserdeck.scriptEvaluating');
/** `code` of the error a refused import throws. */
export const REFUSED_IMPORT = 'ERR_BROWSERDECK_IMPORT_REFUSED';
/** The parameters of the function a bare script is the body of. */
const BODY_PARAMETERS = '{ browser, context, page, input, env, log }';

/**
 * The ES module text of `script`: a module when it has `export default`, else the body of
 * `export default async function ({ browser, context, page, input, env, log }) { … }`. Either starts
 * by calling the evaluation mark, on the first line (so line numbers in stacks stay the script's).
 */
export function scriptModuleSource(script: string): string {
  const mark = `globalThis[Symbol.for('browserdeck.scriptEvaluating')]?.();`;
  if (!/\bexport\s+default\b/.test(script))
    return `${mark}export default async function (${BODY_PARAMETERS}) {${script}\n}\n`;
  if (!script.startsWith('#!')) return mark + script;
  const newline = script.indexOf('\n');
  return newline === -1 ? script : script.slice(0, newline + 1) + mark + script.slice(newline + 1);
}

/**
 * Imports the script module at `scriptUrl`. Refuses, for every module under `scriptDirUrl`, each
 * import but `playwright-core` (mapped to `playwrightUrl`, the runner's own) and `node:` built-ins.
 * Returns the default export, or why it could not: `invalid` (a syntax error, a refused import, no
 * default function) or `threw` (its top-level code threw).
 */
export async function importScript(
  scriptUrl: string,
  scriptDirUrl: string,
  playwrightUrl: string,
): Promise<
  | { readonly ok: true; readonly main: (parameters: unknown) => unknown }
  | { readonly ok: false; readonly kind: 'invalid' | 'threw'; readonly error: unknown }
> {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (!context.parentURL?.startsWith(scriptDirUrl)) return nextResolve(specifier, context);
      if (specifier === 'playwright-core')
        return { url: playwrightUrl, format: 'module', shortCircuit: true };
      if (specifier.startsWith('node:')) return nextResolve(specifier, context);
      throw Object.assign(
        new Error(
          `a script may import only playwright-core and node: built-ins, not ${JSON.stringify(specifier)}`,
        ),
        { code: REFUSED_IMPORT },
      );
    },
  });
  let evaluating = false;
  (globalThis as Record<symbol, unknown>)[EVALUATING] = () => {
    evaluating = true;
  };
  try {
    const module = (await import(scriptUrl)) as { default?: unknown };
    if (typeof module.default !== 'function')
      return { ok: false, kind: 'invalid', error: new Error('the script has no default export function') };
    return { ok: true, main: module.default as (parameters: unknown) => unknown };
  } catch (error) {
    const refused = (error as { code?: unknown } | null)?.code === REFUSED_IMPORT;
    return { ok: false, kind: evaluating && !refused ? 'threw' : 'invalid', error };
  } finally {
    delete (globalThis as Record<symbol, unknown>)[EVALUATING];
  }
}
