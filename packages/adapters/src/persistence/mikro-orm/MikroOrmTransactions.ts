import type { Transactions } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { inTransaction } from './inTransaction.ts';

/** What `MikroOrmTransactions` needs. */
export interface MikroOrmTransactionsDeps {
  orm: BrowserdeckOrm;
}

/**
 * `Transactions` on MikroORM (SQLite, PostgreSQL): `work` runs in one database transaction, which
 * every repository on the same ORM joins (`inTransaction`): a change and its audit entry commit
 * together, or, when `work` throws, neither is stored. A repository that opens a transaction of its
 * own inside (`ProjectRepository.add`, `MemberRepository.transfer`) gets a savepoint of this one,
 * on the same connection. Keep calls that wait on anything but this database out of `work`: on
 * SQLite the one connection is held until the transaction ends, so every other statement waits.
 */
export class MikroOrmTransactions implements Transactions {
  private readonly orm: BrowserdeckOrm;

  constructor(deps: MikroOrmTransactionsDeps) {
    this.orm = deps.orm;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return withDatabaseErrors(() => inTransaction(this.orm, work));
  }
}
