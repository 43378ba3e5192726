import { useState } from 'preact/hooks';
import type { ProjectListItem } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { roleAllows } from '../app/roles.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { formatTime } from '../components/formatting.ts';
import { Link } from '../components/Link.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { TextField } from '../components/TextField.tsx';
import { VisuallyHidden } from '../components/VisuallyHidden.tsx';

/** Props of `ProjectCard`. */
export interface ProjectCardProps {
  /** The project with the caller's role, which decides the actions offered. */
  project: ProjectListItem;
  /** Called after a change, to load the lists again. */
  onChanged: () => Promise<void>;
}

/**
 * One project with the caller's role and the actions it allows: rename, archive or restore (admin),
 * delete after a confirmation (owner).
 */
export function ProjectCard({ project, onChanged }: ProjectCardProps) {
  const { api, announce } = useConsole();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(project.name);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const mayManage = roleAllows(project.role, 'admin');
  const mayDelete = roleAllows(project.role, 'owner');

  const act = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      announce(done);
      setRenaming(false);
      await onChanged();
    } catch (failure) {
      setError(failure);
      announce(`Could not change project ${project.name}.`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <li class="card">
      <h3 id={`project-${project.id}`}>
        <Link to={{ name: 'sessions', projectId: project.id, status: undefined, offset: 0 }}>
          {project.name}
        </Link>
        {project.archived ? <span class="badge">archived</span> : null}
      </h3>
      <p class="meta">
        <span>Slug {project.slug}</span> · <span>Created {formatTime(project.created_at)}</span> ·{' '}
        <span>Your role: {project.role}</span>
      </p>
      {renaming ? (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void act(
              () => api.projects.rename(project.id, name.trim()),
              `Project renamed to ${name.trim()}.`,
            );
          }}
        >
          <TextField
            label={`New name for ${project.name}`}
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            field="name"
            error={error}
          />
          <button type="submit" disabled={busy}>
            Save name
          </button>
          <button type="button" class="secondary" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : null}
      <div class="actions">
        {renaming || !mayManage ? null : (
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setName(project.name);
              setRenaming(true);
            }}
          >
            Rename<VisuallyHidden> {project.name}</VisuallyHidden>
          </button>
        )}
        {!mayManage ? null : project.archived ? (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => act(() => api.projects.restore(project.id), `Project ${project.name} restored.`)}
          >
            Restore<VisuallyHidden> {project.name}</VisuallyHidden>
          </button>
        ) : (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => act(() => api.projects.archive(project.id), `Project ${project.name} archived.`)}
          >
            Archive<VisuallyHidden> {project.name}</VisuallyHidden>
          </button>
        )}
        {mayDelete ? (
          <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)}>
            Delete<VisuallyHidden> {project.name}</VisuallyHidden>
          </button>
        ) : null}
      </div>
      <ProblemAlert error={error} fieldPaths={renaming ? ['name'] : []} />
      <ConfirmDialog
        open={confirming}
        title={`Delete ${project.name}?`}
        confirmLabel="Delete project"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void act(() => api.projects.delete(project.id), `Project ${project.name} deleted.`);
        }}
      >
        <p>
          Its sessions and agents are deleted too, and sessions still running are released first. This cannot
          be undone.
        </p>
      </ConfirmDialog>
    </li>
  );
}
