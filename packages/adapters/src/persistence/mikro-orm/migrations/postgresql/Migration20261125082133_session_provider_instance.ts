import { Migration } from '@mikro-orm/migrations';

export class Migration20261125082133_session_provider_instance extends Migration {
  override name = 'Migration20261125082133_session_provider_instance';

  override up(): void | Promise<void> {
    this.addSql(`alter table "browser_sessions" add "provider_instance_id" text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "browser_sessions" drop column "provider_instance_id";`);
  }
}
