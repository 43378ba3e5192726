import { Migration } from '@mikro-orm/migrations';

export class Migration20261126144151_session_viewport extends Migration {
  override name = 'Migration20261126144151_session_viewport';

  override up(): void | Promise<void> {
    this.addSql(`alter table "browser_sessions" add "viewport" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "browser_sessions" drop column "viewport";`);
  }
}
