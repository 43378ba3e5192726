import { Migration } from '@mikro-orm/migrations';

/**
 * Teams and operators (SPEC §17, issue 38): project members (every existing project gets its owner
 * as its `owner` member), invitations, the audit log, disabled accounts (`users.disabled_at`), and
 * API-key roles (existing keys act as `developer`, the column's default).
 */
export class Migration20261203100000_teams_and_operators extends Migration {
  override name = 'Migration20261203100000_teams_and_operators';

  override up(): void | Promise<void> {
    this.addSql(
      `create table \`audit_entries\` (\`id\` text not null primary key, \`project_id\` text null, \`at\` datetime not null, \`actor_type\` text not null, \`actor_id\` text null, \`actor_email\` text null, \`actor_name\` text null, \`action\` text not null, \`target_type\` text not null, \`target_id\` text not null, \`request_id\` text null, \`ip\` text null);`,
    );
    this.addSql(
      `create index \`audit_entries_project_id_at_index\` on \`audit_entries\` (\`project_id\`, \`at\`, \`id\`);`,
    );
    this.addSql(`create index \`audit_entries_at_index\` on \`audit_entries\` (\`at\`);`);

    this.addSql(
      `create table \`project_members\` (\`project_id\` text not null, \`user_id\` text not null, \`role\` text not null, \`created_at\` datetime not null, \`updated_at\` datetime not null, primary key (\`project_id\`, \`user_id\`), constraint \`project_members_project_id_foreign\` foreign key (\`project_id\`) references \`projects\` (\`id\`) on update cascade on delete cascade, constraint \`project_members_user_id_foreign\` foreign key (\`user_id\`) references \`users\` (\`id\`) on update cascade on delete cascade);`,
    );
    this.addSql(`create index \`project_members_user_id_index\` on \`project_members\` (\`user_id\`);`);
    // Every project made before members has its owner as its one member.
    this.addSql(
      `insert into \`project_members\` (\`project_id\`, \`user_id\`, \`role\`, \`created_at\`, \`updated_at\`) select \`id\`, \`owner_id\`, 'owner', \`created_at\`, \`created_at\` from \`projects\`;`,
    );

    this.addSql(
      `create table \`invitations\` (\`id\` text not null primary key, \`project_id\` text null, \`email\` text not null, \`role\` text null, \`digest\` text not null, \`invited_by\` text not null, \`created_at\` datetime not null, \`expires_at\` datetime not null, \`accepted_at\` datetime null, \`accepted_by\` text null, \`revoked_at\` datetime null, constraint \`invitations_project_id_foreign\` foreign key (\`project_id\`) references \`projects\` (\`id\`) on delete cascade);`,
    );
    this.addSql(`create index \`invitations_email_index\` on \`invitations\` (\`email\`);`);
    this.addSql(
      `create index \`invitations_project_id_created_at_index\` on \`invitations\` (\`project_id\`, \`created_at\`, \`id\`);`,
    );
    this.addSql(`create unique index \`invitations_digest_unique\` on \`invitations\` (\`digest\`);`);

    this.addSql(`alter table \`users\` add column \`disabled_at\` datetime null;`);

    this.addSql(`alter table \`api_keys\` add column \`role\` text not null default 'developer';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`audit_entries\`;`);
    this.addSql(`drop table if exists \`project_members\`;`);
    this.addSql(`drop table if exists \`invitations\`;`);

    this.addSql(`alter table \`api_keys\` drop column \`role\`;`);

    this.addSql(`alter table \`users\` drop column \`disabled_at\`;`);
  }
}
