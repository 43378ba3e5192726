import { checkBoundaries } from './checkBoundaries.ts';

const violations = checkBoundaries(process.cwd());
for (const v of violations) console.error(`${v.file}: imports '${v.specifier}' — ${v.rule}`);
if (violations.length > 0) {
  console.error(`\n${violations.length} dependency-rule violation(s).`);
  process.exit(1);
}
console.log('Dependency boundaries: OK');
