import { Migration } from '@mikro-orm/migrations';

export class Migration20261126202006_extensions extends Migration {
  override name = 'Migration20261126202006_extensions';

  override up(): void | Promise<void> {
    this.addSql(
      `create table \`extensions\` (\`id\` text not null primary key, \`project_id\` text not null, \`name\` text not null, \`file_name\` text not null, \`size\` integer not null, \`archive\` blob not null, \`provider_extension_id\` text null, \`created_at\` datetime not null, constraint \`extensions_project_id_foreign\` foreign key (\`project_id\`) references \`projects\` (\`id\`) on delete cascade);`,
    );
    this.addSql(
      `create index \`extensions_project_id_created_at_index\` on \`extensions\` (\`project_id\`, \`created_at\`, \`id\`);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`extensions\`;`);
  }
}
