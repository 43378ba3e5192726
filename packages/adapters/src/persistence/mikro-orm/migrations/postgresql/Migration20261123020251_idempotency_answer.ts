import { Migration } from '@mikro-orm/migrations';

export class Migration20261123020251_idempotency_answer extends Migration {
  override name = 'Migration20261123020251_idempotency_answer';

  override up(): void | Promise<void> {
    this.addSql(`alter table "idempotency_keys" add "answer" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "idempotency_keys" drop column "answer";`);
  }
}
