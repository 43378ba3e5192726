import type { ApiKeySecrets } from '../apiKeys/ApiKeySecrets.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { AccountAdmission } from '../auth/AccountAdmission.ts';
import type { UserRepository } from '../auth/UserRepository.ts';
import type { InvitationRepository } from '../members/InvitationRepository.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { ProjectWorkDeps } from '../projects/stopProjectWork.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import type { UsageRepository } from './UsageRepository.ts';

/** What the operators' use cases need (SPEC §17); each takes the part it uses. */
export interface OperatorsDeps extends ProjectWorkDeps {
  users: UserRepository;
  projects: ProjectRepository;
  invitations: InvitationRepository;
  usage: UsageRepository;
  /** Who is an operator (`ADMIN_EMAILS`). */
  admission: AccountAdmission;
  secrets: ApiKeySecrets;
  audit: AuditTrail;
  ids: IdGenerator;
}
