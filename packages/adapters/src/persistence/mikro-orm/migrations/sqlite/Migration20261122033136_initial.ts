import { Migration } from '@mikro-orm/migrations';

export class Migration20261122033136_initial extends Migration {
  override name = 'Migration20261122033136_initial';

  override up(): void | Promise<void> {
    this.addSql(
      `create table \`local_credentials\` (\`user_id\` text not null primary key, \`email\` text not null, \`password_hash\` text not null, \`metadata\` json not null, \`created_at\` datetime not null);`,
    );
    this.addSql(
      `create unique index \`local_credentials_email_unique\` on \`local_credentials\` (\`email\`);`,
    );

    this.addSql(
      `create table \`local_sign_in_sessions\` (\`id\` text not null primary key, \`user_id\` text not null, \`created_at\` datetime not null, \`revoked_at\` datetime null, constraint \`local_sign_in_sessions_user_id_foreign\` foreign key (\`user_id\`) references \`local_credentials\` (\`user_id\`) on delete cascade);`,
    );
    this.addSql(
      `create index \`local_sign_in_sessions_user_id_index\` on \`local_sign_in_sessions\` (\`user_id\`);`,
    );

    this.addSql(
      `create table \`local_refresh_tokens\` (\`token_hash\` text not null primary key, \`session_id\` text not null, \`user_id\` text not null, \`created_at\` datetime not null, \`expires_at\` datetime not null, \`used_at\` datetime null, constraint \`local_refresh_tokens_session_id_foreign\` foreign key (\`session_id\`) references \`local_sign_in_sessions\` (\`id\`) on delete cascade, constraint \`local_refresh_tokens_user_id_foreign\` foreign key (\`user_id\`) references \`local_credentials\` (\`user_id\`) on delete cascade);`,
    );
    this.addSql(
      `create index \`local_refresh_tokens_session_id_index\` on \`local_refresh_tokens\` (\`session_id\`);`,
    );
    this.addSql(
      `create index \`local_refresh_tokens_user_id_index\` on \`local_refresh_tokens\` (\`user_id\`);`,
    );

    this.addSql(
      `create table \`users\` (\`id\` text not null primary key, \`email\` text not null, \`created_at\` datetime not null);`,
    );

    this.addSql(
      `create table \`projects\` (\`id\` text not null primary key, \`owner_id\` text not null, \`name\` text not null, \`slug\` text not null, \`archived\` integer not null, \`created_at\` datetime not null, \`updated_at\` datetime not null, constraint \`projects_owner_id_foreign\` foreign key (\`owner_id\`) references \`users\` (\`id\`) on delete cascade);`,
    );
    this.addSql(
      `create index \`projects_owner_id_archived_created_at_index\` on \`projects\` (\`owner_id\`, \`archived\`, \`created_at\`, \`id\`);`,
    );
    this.addSql(
      `create unique index \`projects_owner_id_slug_unique\` on \`projects\` (\`owner_id\`, \`slug\`);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`local_credentials\`;`);
    this.addSql(`drop table if exists \`local_sign_in_sessions\`;`);
    this.addSql(`drop table if exists \`local_refresh_tokens\`;`);
    this.addSql(`drop table if exists \`users\`;`);
    this.addSql(`drop table if exists \`projects\`;`);
  }
}
