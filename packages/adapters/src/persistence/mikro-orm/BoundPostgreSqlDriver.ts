import type { Configuration } from '@mikro-orm/core';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { bindingParameters } from './bindingParameters.ts';

/** `pg` through MikroORM, every value bound (`$1`, `$2`, …). */
class BoundPostgreSqlConnection extends bindingParameters(PostgreSqlConnection, (n) => `$${n}`) {}

/**
 * MikroORM's PostgreSQL driver on `BoundPostgreSqlConnection`. Pass it as the `driver` option; it is
 * still a `PostgreSqlDriver` for everything else. Its own module, so only a PostgreSQL host loads
 * `@mikro-orm/postgresql`.
 */
export class BoundPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    Object.assign(this, {
      connection: new BoundPostgreSqlConnection(this.config),
      replicas: this.createReplicas((options) => new BoundPostgreSqlConnection(this.config, options, 'read')),
    });
  }
}
