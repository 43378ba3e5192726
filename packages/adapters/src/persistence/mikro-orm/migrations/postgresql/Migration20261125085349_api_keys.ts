import { Migration } from '@mikro-orm/migrations';

export class Migration20261125085349_api_keys extends Migration {
  override name = 'Migration20261125085349_api_keys';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "api_keys" ("id" uuid not null, "project_id" uuid not null, "owner_id" uuid not null, "name" text not null, "prefix" text not null, "digest" text not null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) null, "last_used_at" timestamptz(3) null, "revoked_at" timestamptz(3) null, primary key ("id"));`,
    );
    this.addSql(
      `create index "api_keys_project_id_created_at_index" on "api_keys" ("project_id", "created_at", "id");`,
    );
    this.addSql(`alter table "api_keys" add constraint "api_keys_prefix_unique" unique ("prefix");`);

    this.addSql(
      `alter table "api_keys" add constraint "api_keys_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_keys" cascade;`);
  }
}
