import { useEffect, useId, useState } from 'preact/hooks';
import { ApiError } from '../api/ApiError.ts';
import type { Agent, AgentInput } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { navigate } from '../app/navigation.ts';
import { useProjectAllows } from '../app/ProjectContext.ts';
import { useResource } from '../app/useResource.ts';
import { CodeEditor } from '../components/CodeEditor.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { type EnvRow, EnvVarsEditor } from '../components/EnvVarsEditor.tsx';
import { Link } from '../components/Link.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { TextField } from '../components/TextField.tsx';
import { RunAgentForm } from './RunAgentForm.tsx';

/** The form's state: the agent's editable fields, env vars as rows, numbers as typed. */
interface AgentForm {
  name: string;
  description: string;
  script: string;
  env: EnvRow[];
  timeoutSec: string;
  region: string;
  active: boolean;
}

const EMPTY: AgentForm = {
  name: '',
  description: '',
  script: '',
  env: [],
  timeoutSec: '300',
  region: '',
  active: true,
};

const FIELDS = ['name', 'description', 'script', 'envVars', 'timeoutSec', 'region', 'active'];

function formOf(agent: Agent): AgentForm {
  return {
    name: agent.name,
    description: agent.description,
    script: agent.script,
    env: Object.entries(agent.envVars).map(([key, value]) => ({ key, value })),
    timeoutSec: String(agent.timeoutSec),
    region: agent.region ?? '',
    active: agent.active,
  };
}

function inputOf(form: AgentForm): AgentInput {
  return {
    name: form.name.trim(),
    description: form.description,
    script: form.script,
    envVars: Object.fromEntries(form.env.filter((row) => row.key !== '').map((row) => [row.key, row.value])),
    timeoutSec: Number(form.timeoutSec),
    active: form.active,
    ...(form.region.trim() ? { region: form.region.trim() } : {}),
  };
}

/** Props of `AgentEditorScreen`. */
export interface AgentEditorScreenProps {
  projectId: string;
  /** An agent's id, or `new`. */
  agentId: string;
}

/**
 * Creates or edits an agent: its script in a code editor, env values masked; deletes it; runs it. For
 * a viewer, read-only: its fields shown (env values as the server masks them), nothing to save, delete
 * or run, so masked values are never sent back.
 */
export function AgentEditorScreen({ projectId, agentId }: AgentEditorScreenProps) {
  const { api, announce } = useConsole();
  const mayEdit = useProjectAllows('developer');
  const readOnly = !mayEdit;
  const creating = agentId === 'new';
  const loaded = useResource(
    () => (creating ? Promise.resolve(undefined) : api.agents.get(projectId, agentId)),
    `${projectId}|${agentId}`,
  );
  const [form, setForm] = useState<AgentForm>(EMPTY);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // What the server last answered for the agent (a save changes it): what a run runs.
  const [savedAgent, setSavedAgent] = useState<Agent | undefined>(undefined);
  const scriptLabel = useId();
  const scriptHint = useId();
  // Only an agent that arrived replaces the form: a new agent's form is never reset under the typing.
  useEffect(() => {
    if (loaded.data) setForm(formOf(loaded.data));
  }, [loaded.data]);
  const set = (patch: Partial<AgentForm>) => setForm((current) => ({ ...current, ...patch }));
  const fieldError = (path: string) => (error instanceof ApiError ? error.fieldMessage(path) : undefined);

  const save = async (event: Event) => {
    event.preventDefault();
    if (readOnly) return;
    setBusy(true);
    setError(undefined);
    try {
      const agent = creating
        ? await api.agents.create(projectId, inputOf(form))
        : await api.agents.update(projectId, agentId, inputOf(form));
      announce(creating ? `Agent ${agent.name} created.` : `Agent ${agent.name} saved.`);
      if (creating) navigate({ name: 'agent', projectId, agentId: agent.id }, { replace: true });
      else {
        setForm(formOf(agent));
        setSavedAgent(agent);
      }
    } catch (failure) {
      setError(failure);
      announce('The agent was not saved.');
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setConfirming(false);
    setBusy(true);
    setError(undefined);
    try {
      await api.agents.delete(projectId, agentId);
      announce(`Agent ${form.name} deleted.`);
      navigate({ name: 'agents', projectId });
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  const scriptError = fieldError('script');
  if (creating && readOnly) {
    return (
      <>
        <p class="breadcrumbs">
          <Link to={{ name: 'agents', projectId }}>Agents</Link> /
        </p>
        <h1 tabIndex={-1}>New agent</h1>
        <p class="notice">A viewer reads this project's agents but does not create them.</p>
      </>
    );
  }
  return (
    <>
      <p class="breadcrumbs">
        <Link to={{ name: 'agents', projectId }}>Agents</Link> /
      </p>
      <h1 tabIndex={-1}>{creating ? 'New agent' : (loaded.data?.name ?? 'Agent')}</h1>
      <ProblemAlert error={loaded.error} />
      {creating || loaded.data ? (
        <form onSubmit={save} class="panel agent-form">
          {readOnly ? (
            <p class="notice">Read-only: a viewer sees this agent but does not change it.</p>
          ) : null}
          <TextField
            label="Name"
            required
            maxLength={200}
            readOnly={readOnly}
            value={form.name}
            onInput={(e) => set({ name: e.currentTarget.value })}
            field="name"
            error={error}
          />
          <div class="field">
            <label for="agent-description">Description</label>
            <textarea
              id="agent-description"
              rows={2}
              maxLength={2000}
              readOnly={readOnly}
              value={form.description}
              onInput={(e) => set({ description: e.currentTarget.value })}
            />
            {fieldError('description') ? <p class="field-error">{fieldError('description')}</p> : null}
          </div>
          <div class="field">
            <span class="label" id={scriptLabel}>
              Script
            </span>
            <p class="hint" id={scriptHint}>
              JavaScript. Tab moves to the next field; press Ctrl+M to make Tab indent instead.
            </p>
            <CodeEditor
              key={loaded.data?.updatedAt ?? 'new'}
              initialValue={loaded.data?.script ?? ''}
              onInput={(script) => set({ script })}
              labelledBy={scriptLabel}
              describedBy={scriptError ? `${scriptHint} agent-script-error` : scriptHint}
              invalid={Boolean(scriptError)}
              readOnly={readOnly}
            />
            {scriptError ? (
              <p class="field-error" id="agent-script-error">
                {scriptError}
              </p>
            ) : null}
          </div>
          <EnvVarsEditor
            rows={form.env}
            onChange={(env) => set({ env })}
            error={fieldError('envVars')}
            readOnly={readOnly}
          />
          <div class="inline-form">
            <TextField
              label="Timeout in seconds"
              type="number"
              inputMode="numeric"
              min={60}
              max={21600}
              required
              readOnly={readOnly}
              value={form.timeoutSec}
              onInput={(e) => set({ timeoutSec: e.currentTarget.value })}
              field="timeoutSec"
              error={error}
            />
            <TextField
              label="Region (optional)"
              readOnly={readOnly}
              value={form.region}
              onInput={(e) => set({ region: e.currentTarget.value })}
              field="region"
              error={error}
              hint="Empty: the provider's default."
            />
            <div class="field field-inline">
              <input
                id="agent-active"
                type="checkbox"
                checked={form.active}
                disabled={readOnly}
                onChange={(e) => set({ active: e.currentTarget.checked })}
              />
              <label for="agent-active">Active</label>
            </div>
          </div>
          <ProblemAlert error={error} fieldPaths={FIELDS} />
          {readOnly ? null : (
            <div class="actions">
              <button type="submit" disabled={busy}>
                {creating ? 'Create agent' : 'Save agent'}
              </button>
              {creating ? null : (
                <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)}>
                  Delete
                </button>
              )}
            </div>
          )}
        </form>
      ) : loaded.loading ? (
        <p aria-busy="true">Loading the agent…</p>
      ) : null}
      {loaded.data && !creating && mayEdit ? (
        <RunAgentForm projectId={projectId} agent={savedAgent ?? loaded.data} />
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={`Delete agent ${form.name}?`}
        confirmLabel="Delete agent"
        onCancel={() => setConfirming(false)}
        onConfirm={remove}
      >
        <p>Sessions that ran it keep its id. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
