import { Migration } from '@mikro-orm/migrations';

export class Migration20261202150001_shared_contexts extends Migration {
  override name = 'Migration20261202150001_shared_contexts';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "stored_blobs" ("key" text not null, "size" int not null, "content" bytea not null, "updated_at" timestamptz(3) not null, primary key ("key"));`,
    );
    this.addSql(
      `create table "browser_contexts" ("project_id" uuid not null, "id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "version" text null, "size" int not null, "holder_session_id" text null, "holder_instance_id" text null, "holder_until" timestamptz(3) null, primary key ("project_id", "id"));`,
    );
    this.addSql(
      `create index "browser_contexts_holder_instance_id_index" on "browser_contexts" ("holder_instance_id");`,
    );

    this.addSql(
      `alter table "browser_contexts" add constraint "browser_contexts_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "browser_contexts" cascade;`);
    this.addSql(`drop table if exists "stored_blobs" cascade;`);
  }
}
