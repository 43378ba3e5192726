import { Migration } from '@mikro-orm/migrations';

export class Migration20261125093000_session_metadata extends Migration {
  override name = 'Migration20261125093000_session_metadata';

  override up(): void | Promise<void> {
    this.addSql(`alter table "browser_sessions" add "metadata" jsonb not null default '{}';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "browser_sessions" drop column "metadata";`);
  }
}
