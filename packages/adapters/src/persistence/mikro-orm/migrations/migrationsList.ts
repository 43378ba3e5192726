import type { MigrationsOptions } from '@mikro-orm/core';
import { Migration20261122033138_initial as postgresql20261122033138_initial } from './postgresql/Migration20261122033138_initial.ts';
import { Migration20261122034052_sessions_agents_idempotency as postgresql20261122034052_sessions_agents_idempotency } from './postgresql/Migration20261122034052_sessions_agents_idempotency.ts';
import { Migration20261123020251_idempotency_answer as postgresql20261123020251_idempotency_answer } from './postgresql/Migration20261123020251_idempotency_answer.ts';
import { Migration20261123021015_supabase_revocation as postgresql20261123021015_supabase_revocation } from './postgresql/Migration20261123021015_supabase_revocation.ts';
import { Migration20261124190840_rate_limits as postgresql20261124190840_rate_limits } from './postgresql/Migration20261124190840_rate_limits.ts';
import { Migration20261125082133_session_provider_instance as postgresql20261125082133_session_provider_instance } from './postgresql/Migration20261125082133_session_provider_instance.ts';
import { Migration20261125085349_api_keys as postgresql20261125085349_api_keys } from './postgresql/Migration20261125085349_api_keys.ts';
import { Migration20261125093000_session_metadata as postgresql20261125093000_session_metadata } from './postgresql/Migration20261125093000_session_metadata.ts';
import { Migration20261125093100_session_keep_alive as postgresql20261125093100_session_keep_alive } from './postgresql/Migration20261125093100_session_keep_alive.ts';
import { Migration20261126144151_session_viewport as postgresql20261126144151_session_viewport } from './postgresql/Migration20261126144151_session_viewport.ts';
import { Migration20261126152741_runs as postgresql20261126152741_runs } from './postgresql/Migration20261126152741_runs.ts';
import { Migration20261126174512_instances as postgresql20261126174512_instances } from './postgresql/Migration20261126174512_instances.ts';
import { Migration20261126175539_provider_orphan_searches as postgresql20261126175539_provider_orphan_searches } from './postgresql/Migration20261126175539_provider_orphan_searches.ts';
import { Migration20261126201758_session_proxies as postgresql20261126201758_session_proxies } from './postgresql/Migration20261126201758_session_proxies.ts';
import { Migration20261126202007_extensions as postgresql20261126202007_extensions } from './postgresql/Migration20261126202007_extensions.ts';
import { Migration20261201213001_bounded_run_rows as postgresql20261201213001_bounded_run_rows } from './postgresql/Migration20261201213001_bounded_run_rows.ts';
import { Migration20261201220001_counts_and_retention as postgresql20261201220001_counts_and_retention } from './postgresql/Migration20261201220001_counts_and_retention.ts';
import { Migration20261202150001_shared_contexts as postgresql20261202150001_shared_contexts } from './postgresql/Migration20261202150001_shared_contexts.ts';
import { Migration20261202153001_session_shares as postgresql20261202153001_session_shares } from './postgresql/Migration20261202153001_session_shares.ts';
import { Migration20261203100001_teams_and_operators as postgresql20261203100001_teams_and_operators } from './postgresql/Migration20261203100001_teams_and_operators.ts';
import { Migration20261122033136_initial as sqlite20261122033136_initial } from './sqlite/Migration20261122033136_initial.ts';
import { Migration20261122034051_sessions_agents_idempotency as sqlite20261122034051_sessions_agents_idempotency } from './sqlite/Migration20261122034051_sessions_agents_idempotency.ts';
import { Migration20261123020247_idempotency_answer as sqlite20261123020247_idempotency_answer } from './sqlite/Migration20261123020247_idempotency_answer.ts';
import { Migration20261123021013_supabase_revocation as sqlite20261123021013_supabase_revocation } from './sqlite/Migration20261123021013_supabase_revocation.ts';
import { Migration20261124190839_rate_limits as sqlite20261124190839_rate_limits } from './sqlite/Migration20261124190839_rate_limits.ts';
import { Migration20261125082133_session_provider_instance as sqlite20261125082133_session_provider_instance } from './sqlite/Migration20261125082133_session_provider_instance.ts';
import { Migration20261125085349_api_keys as sqlite20261125085349_api_keys } from './sqlite/Migration20261125085349_api_keys.ts';
import { Migration20261125093000_session_metadata as sqlite20261125093000_session_metadata } from './sqlite/Migration20261125093000_session_metadata.ts';
import { Migration20261125093100_session_keep_alive as sqlite20261125093100_session_keep_alive } from './sqlite/Migration20261125093100_session_keep_alive.ts';
import { Migration20261126144150_session_viewport as sqlite20261126144150_session_viewport } from './sqlite/Migration20261126144150_session_viewport.ts';
import { Migration20261126152740_runs as sqlite20261126152740_runs } from './sqlite/Migration20261126152740_runs.ts';
import { Migration20261126174511_instances as sqlite20261126174511_instances } from './sqlite/Migration20261126174511_instances.ts';
import { Migration20261126175538_provider_orphan_searches as sqlite20261126175538_provider_orphan_searches } from './sqlite/Migration20261126175538_provider_orphan_searches.ts';
import { Migration20261126201757_session_proxies as sqlite20261126201757_session_proxies } from './sqlite/Migration20261126201757_session_proxies.ts';
import { Migration20261126202006_extensions as sqlite20261126202006_extensions } from './sqlite/Migration20261126202006_extensions.ts';
import { Migration20261201213000_bounded_run_rows as sqlite20261201213000_bounded_run_rows } from './sqlite/Migration20261201213000_bounded_run_rows.ts';
import { Migration20261201220000_counts_and_retention as sqlite20261201220000_counts_and_retention } from './sqlite/Migration20261201220000_counts_and_retention.ts';
import { Migration20261202150000_shared_contexts as sqlite20261202150000_shared_contexts } from './sqlite/Migration20261202150000_shared_contexts.ts';
import { Migration20261202153000_session_shares as sqlite20261202153000_session_shares } from './sqlite/Migration20261202153000_session_shares.ts';
import { Migration20261203100000_teams_and_operators as sqlite20261203100000_teams_and_operators } from './sqlite/Migration20261203100000_teams_and_operators.ts';

/** The checked-in migrations of each dialect, oldest first. Generated by scripts/createMigration.ts. */
export const migrationsList: Record<
  'sqlite' | 'postgresql',
  NonNullable<MigrationsOptions['migrationsList']>
> = {
  sqlite: [
    { name: 'Migration20261122033136_initial', class: sqlite20261122033136_initial },
    {
      name: 'Migration20261122034051_sessions_agents_idempotency',
      class: sqlite20261122034051_sessions_agents_idempotency,
    },
    { name: 'Migration20261123020247_idempotency_answer', class: sqlite20261123020247_idempotency_answer },
    { name: 'Migration20261123021013_supabase_revocation', class: sqlite20261123021013_supabase_revocation },
    { name: 'Migration20261124190839_rate_limits', class: sqlite20261124190839_rate_limits },
    {
      name: 'Migration20261125082133_session_provider_instance',
      class: sqlite20261125082133_session_provider_instance,
    },
    { name: 'Migration20261125085349_api_keys', class: sqlite20261125085349_api_keys },
    { name: 'Migration20261125093000_session_metadata', class: sqlite20261125093000_session_metadata },
    { name: 'Migration20261125093100_session_keep_alive', class: sqlite20261125093100_session_keep_alive },
    { name: 'Migration20261126144150_session_viewport', class: sqlite20261126144150_session_viewport },
    { name: 'Migration20261126152740_runs', class: sqlite20261126152740_runs },
    { name: 'Migration20261126174511_instances', class: sqlite20261126174511_instances },
    {
      name: 'Migration20261126175538_provider_orphan_searches',
      class: sqlite20261126175538_provider_orphan_searches,
    },
    { name: 'Migration20261126201757_session_proxies', class: sqlite20261126201757_session_proxies },
    { name: 'Migration20261126202006_extensions', class: sqlite20261126202006_extensions },
    { name: 'Migration20261201213000_bounded_run_rows', class: sqlite20261201213000_bounded_run_rows },
    {
      name: 'Migration20261201220000_counts_and_retention',
      class: sqlite20261201220000_counts_and_retention,
    },
    { name: 'Migration20261202150000_shared_contexts', class: sqlite20261202150000_shared_contexts },
    { name: 'Migration20261202153000_session_shares', class: sqlite20261202153000_session_shares },
    { name: 'Migration20261203100000_teams_and_operators', class: sqlite20261203100000_teams_and_operators },
  ],
  postgresql: [
    { name: 'Migration20261122033138_initial', class: postgresql20261122033138_initial },
    {
      name: 'Migration20261122034052_sessions_agents_idempotency',
      class: postgresql20261122034052_sessions_agents_idempotency,
    },
    {
      name: 'Migration20261123020251_idempotency_answer',
      class: postgresql20261123020251_idempotency_answer,
    },
    {
      name: 'Migration20261123021015_supabase_revocation',
      class: postgresql20261123021015_supabase_revocation,
    },
    { name: 'Migration20261124190840_rate_limits', class: postgresql20261124190840_rate_limits },
    {
      name: 'Migration20261125082133_session_provider_instance',
      class: postgresql20261125082133_session_provider_instance,
    },
    { name: 'Migration20261125085349_api_keys', class: postgresql20261125085349_api_keys },
    { name: 'Migration20261125093000_session_metadata', class: postgresql20261125093000_session_metadata },
    {
      name: 'Migration20261125093100_session_keep_alive',
      class: postgresql20261125093100_session_keep_alive,
    },
    { name: 'Migration20261126144151_session_viewport', class: postgresql20261126144151_session_viewport },
    { name: 'Migration20261126152741_runs', class: postgresql20261126152741_runs },
    { name: 'Migration20261126174512_instances', class: postgresql20261126174512_instances },
    {
      name: 'Migration20261126175539_provider_orphan_searches',
      class: postgresql20261126175539_provider_orphan_searches,
    },
    { name: 'Migration20261126201758_session_proxies', class: postgresql20261126201758_session_proxies },
    { name: 'Migration20261126202007_extensions', class: postgresql20261126202007_extensions },
    { name: 'Migration20261201213001_bounded_run_rows', class: postgresql20261201213001_bounded_run_rows },
    {
      name: 'Migration20261201220001_counts_and_retention',
      class: postgresql20261201220001_counts_and_retention,
    },
    { name: 'Migration20261202150001_shared_contexts', class: postgresql20261202150001_shared_contexts },
    { name: 'Migration20261202153001_session_shares', class: postgresql20261202153001_session_shares },
    {
      name: 'Migration20261203100001_teams_and_operators',
      class: postgresql20261203100001_teams_and_operators,
    },
  ],
};
