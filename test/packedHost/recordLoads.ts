import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

/**
 * Preloaded (`node --import`) into the packed host: records the URL of every module it resolves and
 * writes them, one a line, to `$RECORD_LOADS_FILE` when the process exits, so the test can tell
 * which packages a host really loads.
 */
const file = process.env.RECORD_LOADS_FILE;
if (!file) throw new Error('RECORD_LOADS_FILE is required');
const urls = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    urls.add(resolved.url);
    return resolved;
  },
});
process.on('exit', () => writeFileSync(file, [...urls].join('\n')));
