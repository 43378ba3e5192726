import { Project } from '@browserdeck/domain';
import { BUILT_AT, BUILT_OWNER_ID, builtId, nextBuiltNumber } from './builderDefaults.ts';

/** What `aProject` may be told; `archived: true` archives the project at its creation time. */
export type ProjectOverrides = Partial<Parameters<typeof Project.create>[0]> & { archived?: boolean };

/**
 * A valid, active project built through `Project.create`: a fresh id, name `Project <n>` and slug
 * `project-<n>`, owned by `BUILT_OWNER_ID`, created at `BUILT_AT`.
 */
export function aProject(overrides: ProjectOverrides = {}): Project {
  const n = nextBuiltNumber();
  const { archived = false, ...props } = overrides;
  const project = Project.create({
    id: builtId(n),
    ownerId: BUILT_OWNER_ID,
    name: `Project ${n}`,
    slug: `project-${n}`,
    now: BUILT_AT,
    ...props,
  });
  if (archived) project.archive(project.createdAt);
  return project;
}
