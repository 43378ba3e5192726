import { Migration } from '@mikro-orm/migrations';

export class Migration20261126201757_session_proxies extends Migration {
  override name = 'Migration20261126201757_session_proxies';

  override up(): void | Promise<void> {
    this.addSql(`drop index \`browser_sessions_project_id_status_created_at_index\`;`);
    this.addSql(`drop index \`browser_sessions_project_id_created_at_index\`;`);
    this.addSql(`alter table \`browser_sessions\` add column \`proxies\` text null;`);
    this.addSql(`alter table \`browser_sessions\` add column \`proxy_bytes\` bigint not null default '0';`);
    this.addSql(
      `create index \`browser_sessions_project_id_status_created_at_index\` on \`browser_sessions\` (\`project_id\`, \`status\`, \`created_at\`, \`id\`, \`started_at\`, \`ended_at\`, \`proxy_bytes\`);`,
    );
    this.addSql(
      `create index \`browser_sessions_project_id_created_at_index\` on \`browser_sessions\` (\`project_id\`, \`created_at\`, \`id\`, \`proxy_bytes\`);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index \`browser_sessions_project_id_created_at_index\`;`);
    this.addSql(`drop index \`browser_sessions_project_id_status_created_at_index\`;`);
    this.addSql(`alter table \`browser_sessions\` drop column \`proxies\`;`);
    this.addSql(`alter table \`browser_sessions\` drop column \`proxy_bytes\`;`);
    this.addSql(
      `create index \`browser_sessions_project_id_created_at_index\` on \`browser_sessions\` (\`project_id\`, \`created_at\`, \`id\`);`,
    );
    this.addSql(
      `create index \`browser_sessions_project_id_status_created_at_index\` on \`browser_sessions\` (\`project_id\`, \`status\`, \`created_at\`, \`id\`, \`started_at\`, \`ended_at\`);`,
    );
  }
}
