import { Migration } from '@mikro-orm/migrations';

export class Migration20261126152741_runs extends Migration {
  override name = 'Migration20261126152741_runs';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "runs" ("id" uuid not null, "project_id" uuid not null, "owner_id" uuid not null, "agent_id" uuid null, "session_id" uuid null, "status" text not null, "input" jsonb null, "result" jsonb null, "error" jsonb null, "exit_code" int null, "timeout_sec" int not null, "created_at" timestamptz(3) not null, "started_at" timestamptz(3) null, "ended_at" timestamptz(3) null, "log_bytes" int not null, "script" text not null, "env" text not null, "session_request" jsonb null, "worker_id" text null, "heartbeat_at" timestamptz(3) null, primary key ("id"));`,
    );
    this.addSql(
      `create index "runs_project_id_created_at_index" on "runs" ("project_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "runs_project_id_status_created_at_index" on "runs" ("project_id", "status", "created_at", "id");`,
    );
    this.addSql(
      `create index "runs_project_id_agent_id_created_at_index" on "runs" ("project_id", "agent_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "runs_project_id_session_id_created_at_index" on "runs" ("project_id", "session_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "runs_queued_created_at_index" on "runs" ("created_at", "id") where "status" = 'QUEUED';`,
    );
    this.addSql(
      `create index "runs_running_heartbeat_at_index" on "runs" ("heartbeat_at", "id") where "status" = 'RUNNING';`,
    );

    this.addSql(
      `create table "run_logs" ("run_id" uuid not null, "seq" int not null, "timestamp" timestamptz(3) not null, "stream" text not null, "message" text not null, primary key ("run_id", "seq"));`,
    );

    this.addSql(
      `alter table "runs" add constraint "runs_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "run_logs" add constraint "run_logs_run_id_foreign" foreign key ("run_id") references "runs" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "run_logs" drop constraint "run_logs_run_id_foreign";`);

    this.addSql(`drop table if exists "runs" cascade;`);
    this.addSql(`drop table if exists "run_logs" cascade;`);
  }
}
