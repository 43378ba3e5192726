/** A copy of an entity (same prototype; JSON-valued fields copied deeply), so stored state cannot change by reference. */
export function cloneEntity<T extends object>(entity: T): T {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(entity)), entity) as Record<string, unknown>;
  for (const [key, value] of Object.entries(copy)) {
    if (value !== null && typeof value === 'object' && !(value instanceof Date))
      copy[key] = JSON.parse(JSON.stringify(value));
  }
  return copy as T;
}
