import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { ForbiddenError, ForbiddenForApiKeyError, NotFoundError } from '../shared/DomainError.ts';
import type { Caller } from './Caller.ts';
import type { ProjectGrant } from './ProjectGrant.ts';
import { type ProjectRole, roleAtLeast } from './projectRoles.ts';

/**
 * The one authorisation rule (SPEC §12, §17), on the one project lookup the call makes
 * (`ProjectRepository.findAccess`):
 * - a user reaches the projects they are a member of, with their role; any other project is a 404;
 * - an API key reaches its own project only (else 403 `forbidden_for_api_key`), as `developer` or its
 *   narrower role, and never what needs `admin` or more (403 `forbidden_for_api_key`);
 * - the service itself (`SystemCaller`) acts in its project as the owner;
 * - a role below `least` is 403 `forbidden_for_role`; a project whose owner's account is disabled is
 *   403 `account_disabled` for everyone.
 */
export async function authorizeProject(
  projects: ProjectRepository,
  caller: Caller,
  projectId: string,
  least: ProjectRole,
): Promise<ProjectGrant> {
  if (caller.kind === 'apiKey') {
    if (roleAtLeast(least, 'admin')) {
      throw new ForbiddenForApiKeyError(
        'Managing a project, its members and its API keys needs a signed-in user’s access token, not a project API key.',
      );
    }
    if (caller.projectId !== projectId) {
      throw new ForbiddenForApiKeyError('This API key acts only for its own project.');
    }
  }
  if (caller.kind === 'system' && caller.projectId !== projectId) throw new NotFoundError('Project');
  const record = await projects.findAccess(projectId, caller.kind === 'user' ? caller.userId : null);
  const role = caller.kind === 'user' ? record?.role : caller.kind === 'apiKey' ? caller.role : 'owner';
  if (!record || !role) throw new NotFoundError('Project');
  if (record.ownerDisabled) {
    throw new ForbiddenError('account_disabled', 'The project’s owner account is disabled by an operator.');
  }
  if (!roleAtLeast(role, least)) {
    throw new ForbiddenError(
      'forbidden_for_role',
      `This needs the ${least} role or higher in the project; you are ${role === 'admin' ? 'an' : 'a'} ${role}.`,
    );
  }
  return { project: record.project, role };
}
