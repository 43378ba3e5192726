import type { ApiKeySecrets } from '../apiKeys/ApiKeySecrets.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { UserRepository } from '../auth/UserRepository.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import type { InvitationRepository } from './InvitationRepository.ts';
import type { MemberRepository } from './MemberRepository.ts';

/** What the member and invitation use cases need (SPEC §17); each takes the part it uses. */
export interface MembersDeps {
  projects: ProjectRepository;
  members: MemberRepository;
  invitations: InvitationRepository;
  users: UserRepository;
  /** Makes invitation tokens (`bdi_…`) and their digests, as for API keys. */
  secrets: ApiKeySecrets;
  audit: AuditTrail;
  ids: IdGenerator;
  clock: Clock;
}
