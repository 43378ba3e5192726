import { Migration } from '@mikro-orm/migrations';

export class Migration20261202150000_shared_contexts extends Migration {
  override name = 'Migration20261202150000_shared_contexts';

  override up(): void | Promise<void> {
    this.addSql(
      `create table \`stored_blobs\` (\`key\` text not null primary key, \`size\` integer not null, \`content\` blob not null, \`updated_at\` datetime not null);`,
    );
    this.addSql(
      `create table \`browser_contexts\` (\`project_id\` text not null, \`id\` text not null, \`created_at\` datetime not null, \`updated_at\` datetime not null, \`version\` text null, \`size\` integer not null, \`holder_session_id\` text null, \`holder_instance_id\` text null, \`holder_until\` datetime null, constraint \`browser_contexts_project_id_foreign\` foreign key (\`project_id\`) references \`projects\` (\`id\`) on delete cascade, primary key (\`project_id\`, \`id\`));`,
    );
    this.addSql(
      `create index \`browser_contexts_project_id_index\` on \`browser_contexts\` (\`project_id\`);`,
    );
    this.addSql(
      `create index \`browser_contexts_holder_instance_id_index\` on \`browser_contexts\` (\`holder_instance_id\`);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`browser_contexts\`;`);
    this.addSql(`drop table if exists \`stored_blobs\`;`);
  }
}
