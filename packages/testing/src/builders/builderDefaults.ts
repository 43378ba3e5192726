/** When built objects are created unless told: the instant the domain tests' `ManualClock` starts at. */
export const BUILT_AT = new Date('2026-03-01T12:00:00.000Z');

/** The owner of built projects, sessions' projects and keys unless told. */
export const BUILT_OWNER_ID = '0190f000-0000-7000-8000-00000000a11c';

/** The project built agents, sessions and keys belong to unless told. */
export const BUILT_PROJECT_ID = '0190f000-0000-7000-8000-00000000b0b0';

let seq = 0;

/**
 * The next number of this test file's builders, so two built objects never share an id, a project
 * slug, an agent name or a key prefix. Vitest loads a fresh module per test file, so the numbers are
 * the same on every run of a file.
 */
export function nextBuiltNumber(): number {
  seq++;
  return seq;
}

/** A UUID-shaped id for built object number `n` (the MikroORM repositories store ids as UUIDs). */
export function builtId(n: number): string {
  return `0190f000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;
}
