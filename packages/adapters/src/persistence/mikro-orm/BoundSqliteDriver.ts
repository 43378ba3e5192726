import type { Configuration } from '@mikro-orm/core';
import { SqliteConnection, SqliteDriver } from '@mikro-orm/sqlite';
import { bindingParameters } from './bindingParameters.ts';

/** better-sqlite3 through MikroORM, every value bound (`?`). */
class BoundSqliteConnection extends bindingParameters(SqliteConnection, () => '?') {}

/**
 * MikroORM's SQLite driver on `BoundSqliteConnection`. Pass it as the `driver` option; it is still a
 * `SqliteDriver` for everything else. Its own module, so only a SQLite host loads `@mikro-orm/sqlite`.
 */
export class BoundSqliteDriver extends SqliteDriver {
  constructor(config: Configuration) {
    super(config);
    Object.assign(this, {
      connection: new BoundSqliteConnection(this.config),
      replicas: this.createReplicas((options) => new BoundSqliteConnection(this.config, options, 'read')),
    });
  }
}
