import { Migration } from '@mikro-orm/migrations';

export class Migration20261126175538_provider_orphan_searches extends Migration {
  override name = 'Migration20261126175538_provider_orphan_searches';

  override up(): void | Promise<void> {
    this.addSql(
      `create table \`provider_orphan_searches\` (\`session_id\` text not null primary key, \`provider\` text not null, \`provider_project_id\` text null, \`attempt\` integer not null, \`next_at\` datetime not null, \`lease_until\` datetime null, \`created_at\` datetime not null);`,
    );
    this.addSql(
      `create index \`provider_orphan_searches_next_at_index\` on \`provider_orphan_searches\` (\`next_at\`);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`provider_orphan_searches\`;`);
  }
}
