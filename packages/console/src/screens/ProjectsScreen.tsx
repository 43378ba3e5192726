import { useState } from 'preact/hooks';
import type { ProjectListItem } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useResource } from '../app/useResource.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { TextField } from '../components/TextField.tsx';
import { ProjectCard } from './ProjectCard.tsx';

/** The user's projects, active and archived, and a form to create one (http-api.md §4). */
export function ProjectsScreen() {
  const { api, announce } = useConsole();
  const projects = useResource(async () => {
    const [active, archived] = await Promise.all([api.projects.list(false), api.projects.list(true)]);
    return { active, archived };
  }, 'projects');
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const project = await api.projects.create(name.trim(), slug.trim() || undefined);
      setName('');
      setSlug('');
      announce(`Project ${project.name} created.`);
      await projects.reload();
    } catch (failure) {
      setError(failure);
      announce('The project was not created.');
    } finally {
      setBusy(false);
    }
  };

  const list = (items: ProjectListItem[] | undefined, empty: string) =>
    items && items.length === 0 ? (
      <p class="empty">{empty}</p>
    ) : (
      <ul class="cards">
        {(items ?? []).map((project) => (
          <ProjectCard key={project.id} project={project} onChanged={projects.reload} />
        ))}
      </ul>
    );

  return (
    <>
      <h1 tabIndex={-1}>Projects</h1>
      <section aria-labelledby="new-project" class="panel">
        <h2 id="new-project">New project</h2>
        <form onSubmit={create} class="inline-form">
          <TextField
            label="Project name"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            field="name"
            error={error}
          />
          <TextField
            label="Slug (optional)"
            maxLength={64}
            value={slug}
            onInput={(e) => setSlug(e.currentTarget.value)}
            field="slug"
            error={error}
            hint="Lower-case letters, digits and dashes; derived from the name when empty."
          />
          <button type="submit" disabled={busy}>
            Create project
          </button>
        </form>
        <ProblemAlert error={error} fieldPaths={['name', 'slug']} />
      </section>
      <ProblemAlert error={projects.error} />
      {projects.loading && !projects.data ? <p aria-busy="true">Loading projects…</p> : null}
      <section aria-labelledby="active-projects">
        <h2 id="active-projects">Active projects</h2>
        {list(projects.data?.active, 'No active projects yet: create one above.')}
      </section>
      <section aria-labelledby="archived-projects">
        <h2 id="archived-projects">Archived projects</h2>
        {list(projects.data?.archived, 'No archived projects.')}
      </section>
    </>
  );
}
