import { Migration } from '@mikro-orm/migrations';

export class Migration20261122033138_initial extends Migration {
  override name = 'Migration20261122033138_initial';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "local_credentials" ("user_id" uuid not null, "email" text not null, "password_hash" text not null, "metadata" jsonb not null, "created_at" timestamptz(3) not null, primary key ("user_id"));`,
    );
    this.addSql(
      `alter table "local_credentials" add constraint "local_credentials_email_unique" unique ("email");`,
    );

    this.addSql(
      `create table "local_sign_in_sessions" ("id" uuid not null, "user_id" uuid not null, "created_at" timestamptz(3) not null, "revoked_at" timestamptz(3) null, primary key ("id"));`,
    );
    this.addSql(
      `create index "local_sign_in_sessions_user_id_index" on "local_sign_in_sessions" ("user_id");`,
    );

    this.addSql(
      `create table "local_refresh_tokens" ("token_hash" text not null, "session_id" uuid not null, "user_id" uuid not null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, "used_at" timestamptz(3) null, primary key ("token_hash"));`,
    );
    this.addSql(
      `create index "local_refresh_tokens_session_id_index" on "local_refresh_tokens" ("session_id");`,
    );
    this.addSql(`create index "local_refresh_tokens_user_id_index" on "local_refresh_tokens" ("user_id");`);

    this.addSql(
      `create table "users" ("id" uuid not null, "email" text not null, "created_at" timestamptz(3) not null, primary key ("id"));`,
    );

    this.addSql(
      `create table "projects" ("id" uuid not null, "owner_id" uuid not null, "name" text not null, "slug" text not null, "archived" boolean not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "projects_owner_id_archived_created_at_index" on "projects" ("owner_id", "archived", "created_at", "id");`,
    );
    this.addSql(
      `alter table "projects" add constraint "projects_owner_id_slug_unique" unique ("owner_id", "slug");`,
    );

    this.addSql(
      `alter table "local_sign_in_sessions" add constraint "local_sign_in_sessions_user_id_foreign" foreign key ("user_id") references "local_credentials" ("user_id") on delete cascade;`,
    );

    this.addSql(
      `alter table "local_refresh_tokens" add constraint "local_refresh_tokens_session_id_foreign" foreign key ("session_id") references "local_sign_in_sessions" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "local_refresh_tokens" add constraint "local_refresh_tokens_user_id_foreign" foreign key ("user_id") references "local_credentials" ("user_id") on delete cascade;`,
    );

    this.addSql(
      `alter table "projects" add constraint "projects_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "local_sign_in_sessions" drop constraint "local_sign_in_sessions_user_id_foreign";`,
    );
    this.addSql(`alter table "local_refresh_tokens" drop constraint "local_refresh_tokens_user_id_foreign";`);
    this.addSql(
      `alter table "local_refresh_tokens" drop constraint "local_refresh_tokens_session_id_foreign";`,
    );
    this.addSql(`alter table "projects" drop constraint "projects_owner_id_foreign";`);

    this.addSql(`drop table if exists "local_credentials" cascade;`);
    this.addSql(`drop table if exists "local_sign_in_sessions" cascade;`);
    this.addSql(`drop table if exists "local_refresh_tokens" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "projects" cascade;`);
  }
}
