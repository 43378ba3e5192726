import { Migration } from '@mikro-orm/migrations';

export class Migration20261126174511_instances extends Migration {
  override name = 'Migration20261126174511_instances';

  override up(): void | Promise<void> {
    this.addSql(
      `create table \`instances\` (\`id\` text not null primary key, \`url\` text not null, \`boot_id\` text not null, \`started_at\` datetime not null, \`seen_at\` datetime not null);`,
    );
    this.addSql(`create index \`instances_seen_at_index\` on \`instances\` (\`seen_at\`);`);

    this.addSql(
      `create index \`browser_sessions_provider_session_id_index\` on \`browser_sessions\` (\`provider_session_id\`);`,
    );
    this.addSql(
      `create index \`browser_sessions_provider_instance_id_index\` on \`browser_sessions\` (\`provider_instance_id\`);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`instances\`;`);

    this.addSql(`drop index \`browser_sessions_provider_session_id_index\`;`);
    this.addSql(`drop index \`browser_sessions_provider_instance_id_index\`;`);
  }
}
