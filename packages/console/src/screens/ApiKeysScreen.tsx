import { useState } from 'preact/hooks';
import type { ApiKey, CreatedApiKey } from '../api/types.ts';
import { useConsole } from '../app/ConsoleContext.ts';
import { useResource } from '../app/useResource.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { formatTime } from '../components/formatting.ts';
import { ProblemAlert } from '../components/ProblemAlert.tsx';
import { TextField } from '../components/TextField.tsx';
import { VisuallyHidden } from '../components/VisuallyHidden.tsx';
import { NewKeyNotice } from './NewKeyNotice.tsx';

/** A project's API keys: create one (its key shown once), list them, revoke one (http-api.md §12). */
export function ApiKeysScreen({ projectId }: { projectId: string }) {
  const { api, announce } = useConsole();
  const keys = useResource(() => api.apiKeys.list(projectId), projectId);
  const [name, setName] = useState('');
  const [expiresAt, setExpiresAt] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | undefined>(undefined);

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      // `datetime-local` has no zone: it is the reader's local time, sent as UTC.
      const expiry = expiresAt ? new Date(expiresAt).toISOString() : undefined;
      const key = await api.apiKeys.create(projectId, name.trim(), expiry);
      setCreated(key);
      setName('');
      setExpiresAt('');
      announce(`API key ${key.name} created. Copy it now: it is shown only once.`);
      await keys.reload();
    } catch (failure) {
      setError(failure);
      announce('The API key was not created.');
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (key: ApiKey) => {
    setRevoking(undefined);
    setError(undefined);
    try {
      await api.apiKeys.revoke(projectId, key.id);
      announce(`API key ${key.name} revoked.`);
      if (created?.id === key.id) setCreated(undefined);
      await keys.reload();
    } catch (failure) {
      setError(failure);
      announce('The API key was not revoked.');
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>API keys</h1>
      <section aria-labelledby="new-key" class="panel">
        <h2 id="new-key">New API key</h2>
        <form onSubmit={create} class="inline-form">
          <TextField
            label="Key name"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            field="name"
            error={error}
          />
          <TextField
            label="Expires (optional)"
            type="datetime-local"
            value={expiresAt}
            onInput={(e) => setExpiresAt(e.currentTarget.value)}
            field="expiresAt"
            error={error}
          />
          <button type="submit" disabled={busy}>
            Create API key
          </button>
        </form>
        <ProblemAlert error={error} fieldPaths={['name', 'expiresAt']} />
        {created ? <NewKeyNotice apiKey={created} onDismiss={() => setCreated(undefined)} /> : null}
      </section>
      <section aria-labelledby="key-list" class="panel">
        <h2 id="key-list">Keys</h2>
        <ProblemAlert error={keys.error} />
        {keys.data ? (
          keys.data.length === 0 ? (
            <p class="empty">No API keys.</p>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">API keys, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Prefix</th>
                    <th scope="col">Created</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Last used</th>
                    <th scope="col">
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {keys.data.map((key) => (
                    <tr key={key.id}>
                      <td>{key.name}</td>
                      <td>
                        <code>{key.prefix}…</code>
                      </td>
                      <td>{formatTime(key.createdAt)}</td>
                      <td>{key.expiresAt ? formatTime(key.expiresAt) : 'never'}</td>
                      <td>{formatTime(key.lastUsedAt)}</td>
                      <td>
                        <button type="button" class="danger" onClick={() => setRevoking(key)}>
                          Revoke<VisuallyHidden> {key.name}</VisuallyHidden>
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        ) : keys.loading ? (
          <p aria-busy="true">Loading API keys…</p>
        ) : null}
      </section>
      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke ${revoking?.name ?? 'key'}?`}
        confirmLabel="Revoke key"
        onCancel={() => setRevoking(undefined)}
        onConfirm={() => revoking && revoke(revoking)}
      >
        <p>Clients using it are refused at once. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
