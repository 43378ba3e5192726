import { Migration } from '@mikro-orm/migrations';

export class Migration20261126202007_extensions extends Migration {
  override name = 'Migration20261126202007_extensions';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "extensions" ("id" uuid not null, "project_id" uuid not null, "name" text not null, "file_name" text not null, "size" int not null, "archive" bytea not null, "provider_extension_id" text null, "created_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "extensions_project_id_created_at_index" on "extensions" ("project_id", "created_at", "id");`,
    );

    this.addSql(
      `alter table "extensions" add constraint "extensions_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "extensions" cascade;`);
  }
}
