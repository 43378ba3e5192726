import type { CreatedApiKey } from '../api/types.ts';
import { ShownOnceNotice } from '../components/ShownOnceNotice.tsx';

/** Props of `NewKeyNotice`. */
export interface NewKeyNoticeProps {
  apiKey: CreatedApiKey;
  onDismiss: () => void;
}

/** The key of a new API key, shown this once (the server keeps only its digest), with a copy button. */
export function NewKeyNotice({ apiKey, onDismiss }: NewKeyNoticeProps) {
  return (
    <ShownOnceNotice
      title={`Your new key ${apiKey.name}: copy it now, it is shown only once.`}
      label="API key"
      value={apiKey.key}
      copyLabel="Copy key"
      onDismiss={onDismiss}
    />
  );
}
