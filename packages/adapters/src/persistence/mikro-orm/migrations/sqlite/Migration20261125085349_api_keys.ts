import { Migration } from '@mikro-orm/migrations';

export class Migration20261125085349_api_keys extends Migration {
  override name = 'Migration20261125085349_api_keys';

  override up(): void | Promise<void> {
    this.addSql(
      `create table \`api_keys\` (\`id\` text not null primary key, \`project_id\` text not null, \`owner_id\` text not null, \`name\` text not null, \`prefix\` text not null, \`digest\` text not null, \`created_at\` datetime not null, \`expires_at\` datetime null, \`last_used_at\` datetime null, \`revoked_at\` datetime null, constraint \`api_keys_project_id_foreign\` foreign key (\`project_id\`) references \`projects\` (\`id\`) on delete cascade);`,
    );
    this.addSql(
      `create index \`api_keys_project_id_created_at_index\` on \`api_keys\` (\`project_id\`, \`created_at\`, \`id\`);`,
    );
    this.addSql(`create unique index \`api_keys_prefix_unique\` on \`api_keys\` (\`prefix\`);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`api_keys\`;`);
  }
}
