import { Migration } from '@mikro-orm/migrations';

export class Migration20261126174512_instances extends Migration {
  override name = 'Migration20261126174512_instances';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "instances" ("id" text not null, "url" text not null, "boot_id" text not null, "started_at" timestamptz(3) not null, "seen_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(`create index "instances_seen_at_index" on "instances" ("seen_at");`);

    this.addSql(
      `create index "browser_sessions_provider_session_id_index" on "browser_sessions" ("provider_session_id");`,
    );
    this.addSql(
      `create index "browser_sessions_provider_instance_id_index" on "browser_sessions" ("provider_instance_id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "instances" cascade;`);

    this.addSql(`drop index "browser_sessions_provider_session_id_index";`);
    this.addSql(`drop index "browser_sessions_provider_instance_id_index";`);
  }
}
