/** A PostgreSQL server for tests and tooling, and how to get rid of it. */
export interface PostgresServer {
  /** Superuser URL of the server's `postgres` database. */
  adminUrl: string;
  /** Where the server came from, for the log. */
  description: string;
  /** Stops the server and deletes its folder (a no-op for a server we did not start). */
  stop(): Promise<void>;
}
