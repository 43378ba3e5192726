import { Migration } from '@mikro-orm/migrations';

export class Migration20261126152740_runs extends Migration {
  override name = 'Migration20261126152740_runs';

  override up(): void | Promise<void> {
    this.addSql(
      `create table \`runs\` (\`id\` text not null primary key, \`project_id\` text not null, \`owner_id\` text not null, \`agent_id\` text null, \`session_id\` text null, \`status\` text not null, \`input\` json null, \`result\` json null, \`error\` json null, \`exit_code\` integer null, \`timeout_sec\` integer not null, \`created_at\` datetime not null, \`started_at\` datetime null, \`ended_at\` datetime null, \`log_bytes\` integer not null, \`script\` text not null, \`env\` text not null, \`session_request\` json null, \`worker_id\` text null, \`heartbeat_at\` datetime null, constraint \`runs_project_id_foreign\` foreign key (\`project_id\`) references \`projects\` (\`id\`) on delete cascade);`,
    );
    this.addSql(
      `create index \`runs_project_id_created_at_index\` on \`runs\` (\`project_id\`, \`created_at\`, \`id\`);`,
    );
    this.addSql(
      `create index \`runs_project_id_status_created_at_index\` on \`runs\` (\`project_id\`, \`status\`, \`created_at\`, \`id\`);`,
    );
    this.addSql(
      `create index \`runs_project_id_agent_id_created_at_index\` on \`runs\` (\`project_id\`, \`agent_id\`, \`created_at\`, \`id\`);`,
    );
    this.addSql(
      `create index \`runs_project_id_session_id_created_at_index\` on \`runs\` (\`project_id\`, \`session_id\`, \`created_at\`, \`id\`);`,
    );
    this.addSql(
      `create index \`runs_queued_created_at_index\` on \`runs\` (\`created_at\`, \`id\`) where \`status\` = 'QUEUED';`,
    );
    this.addSql(
      `create index \`runs_running_heartbeat_at_index\` on \`runs\` (\`heartbeat_at\`, \`id\`) where \`status\` = 'RUNNING';`,
    );

    this.addSql(
      `create table \`run_logs\` (\`run_id\` text not null, \`seq\` integer not null, \`timestamp\` datetime not null, \`stream\` text not null, \`message\` text not null, primary key (\`run_id\`, \`seq\`), constraint \`run_logs_run_id_foreign\` foreign key (\`run_id\`) references \`runs\` (\`id\`) on delete cascade);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`runs\`;`);
    this.addSql(`drop table if exists \`run_logs\`;`);
  }
}
