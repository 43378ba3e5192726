/** Shared set-up for integration tests: filled in by the persistence work (PostgreSQL). */
export default async function setup(): Promise<() => Promise<void>> {
  return async () => {};
}
