import { useState } from 'preact/hooks';
import type { CreatedApiKey } from '../api/types.ts';

/** Props of `NewKeyNotice`. */
export interface NewKeyNoticeProps {
  apiKey: CreatedApiKey;
  onDismiss: () => void;
}

/** The key of a new API key, shown this once (the server keeps only its digest), with a copy button. */
export function NewKeyNotice({ apiKey, onDismiss }: NewKeyNoticeProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>(undefined);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(apiKey.key);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section class="notice new-key" aria-labelledby="new-key-title">
      <p id="new-key-title" class="alert-title">
        Your new key {apiKey.name}: copy it now, it is shown only once.
      </p>
      <div class="field">
        <label for="new-key-value">API key</label>
        <input
          id="new-key-value"
          readOnly
          value={apiKey.key}
          spellcheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy key
        </button>
        <button type="button" class="secondary" onClick={onDismiss}>
          Done
        </button>
      </div>
      <p aria-live="polite" class="meta">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'Copy failed: select the key and copy it.'
            : ''}
      </p>
    </section>
  );
}
