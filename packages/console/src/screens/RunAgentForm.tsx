import { useId, useState } from 'preact/hooks';
import { ApiError } from '../api/ApiError.ts';
import type { Agent, AgentRunInput } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { navigate } from '../app/navigation.ts';
import { CodeEditor } from '../components/CodeEditor.tsx';
import { Link } from '../components/Link.tsx';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { TextField } from '../components/TextField.tsx';
import { parseRunInput } from './parseRunInput.ts';

const FIELDS = ['input', 'timeoutSec'];

/** Props of `RunAgentForm`. */
export interface RunAgentFormProps {
  projectId: string;
  /** The agent as saved: a run runs its saved script, not the editor's. */
  agent: Agent;
}

/**
 * Starts a run of an agent (http-api.md §11): its input as JSON, checked here before it is sent,
 * and an optional deadline; then shows the run, its logs streaming. Links to the agent's run history.
 */
export function RunAgentForm({ projectId, agent }: RunAgentFormProps) {
  const { api, announce } = useConsole();
  const [input, setInput] = useState('');
  const [timeoutSec, setTimeoutSec] = useState('');
  const [inputProblem, setInputProblem] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const inputLabel = useId();
  const inputHint = useId();
  const inputError = useId();

  const run = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const parsed = parseRunInput(input);
    if (!parsed.ok) {
      setInputProblem(parsed.message);
      announce('The run was not started: its input is not valid JSON.');
      return;
    }
    setInputProblem(undefined);
    const body: AgentRunInput = {
      ...(parsed.input === undefined ? {} : { input: parsed.input }),
      ...(timeoutSec.trim() ? { timeoutSec: Number(timeoutSec) } : {}),
    };
    setBusy(true);
    try {
      const started = await api.runs.startAgent(projectId, agent.id, body);
      announce(`Run of ${agent.name} started: ${started.status}.`);
      navigate({ name: 'run', projectId, runId: started.id });
    } catch (failure) {
      setError(failure);
      announce('The run was not started.');
      setBusy(false);
    }
  };

  const problem = inputProblem ?? (error instanceof ApiError ? error.fieldMessage('input') : undefined);
  return (
    <section aria-labelledby="agent-run" class="panel">
      <div class="section-head">
        <h2 id="agent-run">Run this agent</h2>
        <Link to={{ name: 'runs', projectId, agentId: agent.id, status: undefined, offset: 0 }}>
          Run history
        </Link>
      </div>
      <form onSubmit={run}>
        <div class="field">
          <span class="label" id={inputLabel}>
            Input (JSON)
          </span>
          <p class="hint" id={inputHint}>
            Any JSON value, up to 64 KiB, given to the script as <code>input</code>. Empty: no input. The run
            uses the saved script{agent.active ? '' : ', and only an active agent runs'}.
          </p>
          <CodeEditor
            language="json"
            initialValue=""
            onInput={(text) => {
              setInput(text);
              setInputProblem(undefined);
            }}
            labelledBy={inputLabel}
            describedBy={problem ? `${inputHint} ${inputError}` : inputHint}
            invalid={Boolean(problem)}
          />
          {problem ? (
            <p class="field-error" id={inputError}>
              {problem}
            </p>
          ) : null}
        </div>
        <div class="inline-form">
          <TextField
            label="Run timeout in seconds (optional)"
            type="number"
            inputMode="numeric"
            min={1}
            max={21600}
            value={timeoutSec}
            onInput={(e) => setTimeoutSec(e.currentTarget.value)}
            field="timeoutSec"
            error={error}
            hint={`Empty: the agent's ${agent.timeoutSec} s.`}
          />
          <button type="submit" disabled={busy}>
            Run
          </button>
        </div>
        <ProblemAlert error={error} fieldPaths={FIELDS} />
      </form>
    </section>
  );
}
