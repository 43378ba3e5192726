/** Removes `readonly`: lets an entity's own intent-named methods change state callers may only read. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The entity itself, writable, for use inside its own methods. */
export function writable<T>(entity: T): Writable<T> {
  return entity as Writable<T>;
}
