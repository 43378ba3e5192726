import { Migration } from '@mikro-orm/migrations';

export class Migration20261125093100_session_keep_alive extends Migration {
  override name = 'Migration20261125093100_session_keep_alive';

  override up(): void | Promise<void> {
    this.addSql(`alter table "browser_sessions" add "keep_alive" boolean not null default true;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "browser_sessions" drop column "keep_alive";`);
  }
}
