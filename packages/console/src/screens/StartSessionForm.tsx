import { useState } from 'preact/hooks';
import { useConsole } from '../app/ConsoleContext.ts';
import { useResource } from '../app/useResource.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { TextField } from '../components/TextField.tsx';

/** Props of `StartSessionForm`. */
export interface StartSessionFormProps {
  projectId: string;
  onStarted: () => Promise<void>;
}

/** Starts a session (`POST …/sessions`), optionally named, with a timeout, from an agent. */
export function StartSessionForm({ projectId, onStarted }: StartSessionFormProps) {
  const { api, announce } = useConsole();
  const agents = useResource(() => api.agents.list(projectId), projectId);
  const [name, setName] = useState('');
  const [timeoutSec, setTimeoutSec] = useState('');
  const [agentId, setAgentId] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const start = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = await api.sessions.create(projectId, {
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(timeoutSec.trim() ? { timeoutSec: Number(timeoutSec) } : {}),
        ...(agentId ? { agentId } : {}),
      });
      setName('');
      announce(`Session ${session.name} started: ${session.status}.`);
      await onStarted();
    } catch (failure) {
      setError(failure);
      announce('The session was not started.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="start-session" class="panel">
      <h2 id="start-session">Start a session</h2>
      <form onSubmit={start} class="inline-form">
        <TextField
          label="Session name (optional)"
          maxLength={200}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          field="name"
          error={error}
        />
        <TextField
          label="Timeout in seconds (optional)"
          type="number"
          inputMode="numeric"
          min={60}
          max={21600}
          placeholder="300"
          value={timeoutSec}
          onInput={(e) => setTimeoutSec(e.currentTarget.value)}
          field="timeoutSec"
          error={error}
        />
        <div class="field">
          <label for="start-agent">Agent (optional)</label>
          <select id="start-agent" value={agentId} onChange={(e) => setAgentId(e.currentTarget.value)}>
            <option value="">None</option>
            {(agents.data ?? [])
              .filter((agent) => agent.active)
              .map((agent) => (
                <option key={agent.id} value={agent.id}>
                  {agent.name}
                </option>
              ))}
          </select>
        </div>
        <button type="submit" disabled={busy}>
          Start session
        </button>
      </form>
      <ProblemAlert error={error} fieldPaths={['name', 'timeoutSec']} />
      <ProblemAlert error={agents.error} />
    </section>
  );
}
