import { Migration } from '@mikro-orm/migrations';

export class Migration20261122034052_sessions_agents_idempotency extends Migration {
  override name = 'Migration20261122034052_sessions_agents_idempotency';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "idempotency_keys" ("scope" text not null, "key" text not null, "fingerprint" text not null, "session_id" uuid null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, primary key ("scope", "key"));`,
    );

    this.addSql(
      `create table "browser_sessions" ("id" uuid not null, "project_id" uuid not null, "provider" text not null, "provider_session_id" text not null, "provider_project_id" text not null, "status" text not null, "connect_url" text not null, "selenium_remote_url" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "started_at" timestamptz(3) not null, "ended_at" timestamptz(3) null, "expires_at" timestamptz(3) null, "last_synced_at" timestamptz(3) not null, "name" text not null, "script" text not null, "env" text not null, "region" text not null, "timeout_sec" int not null, "extension_id" text null, "context_id" text null, "agent_id" uuid null, "sync_lease_until" timestamptz(3) null, primary key ("id"));`,
    );
    this.addSql(
      `create index "browser_sessions_project_id_created_at_index" on "browser_sessions" ("project_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "browser_sessions_project_id_status_created_at_index" on "browser_sessions" ("project_id", "status", "created_at", "id", "started_at", "ended_at");`,
    );
    this.addSql(
      `create index "browser_sessions_active_last_synced_at_index" on "browser_sessions" ("last_synced_at") where "status" in ('PENDING', 'RUNNING');`,
    );

    this.addSql(
      `create table "agents" ("id" uuid not null, "project_id" uuid not null, "name" text not null, "description" text not null, "script" text not null, "env_vars" text not null, "provider_project_id" text null, "context_id" text null, "extension_id" text null, "region" text not null, "timeout_sec" int not null, "active" boolean not null, "metadata" jsonb not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "agents_project_id_created_at_index" on "agents" ("project_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "agents" add constraint "agents_project_id_name_unique" unique ("project_id", "name");`,
    );

    this.addSql(
      `alter table "browser_sessions" add constraint "browser_sessions_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "agents" add constraint "agents_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
    this.addSql(`drop table if exists "browser_sessions" cascade;`);
    this.addSql(`drop table if exists "agents" cascade;`);
  }
}
