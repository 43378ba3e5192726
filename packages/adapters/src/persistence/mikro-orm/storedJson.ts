/**
 * An object-valued JSON column as the driver answers it: parsed by `pg` (`jsonb`), as JSON text by
 * SQLite; null or missing stays as it is. (MikroORM's result mapper leaves JSON to the driver.)
 */
export function storedJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
