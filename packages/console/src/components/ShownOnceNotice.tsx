import { useId, useState } from 'preact/hooks';

/** Props of `ShownOnceNotice`. */
export interface ShownOnceNoticeProps {
  /** What the notice says first, e.g. "Your new key ci: copy it now, it is shown only once." */
  title: string;
  /** The label of the read-only field that holds the value ("API key", "Invitation link"). */
  label: string;
  value: string;
  /** The copy button's text ("Copy key", "Copy link"). */
  copyLabel: string;
  onDismiss: () => void;
}

/**
 * A secret the server shows this once (it keeps only a digest): an API key, an invitation link. In a
 * read-only field that selects itself on focus, with a copy button and a Done button.
 */
export function ShownOnceNotice({ title, label, value, copyLabel, onDismiss }: ShownOnceNoticeProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>(undefined);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section class="notice new-key" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} class="alert-title">
        {title}
      </p>
      <div class="field">
        <label for={`${id}-value`}>{label}</label>
        <input
          id={`${id}-value`}
          readOnly
          value={value}
          spellcheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <div class="actions">
        <button type="button" onClick={copy}>
          {copyLabel}
        </button>
        <button type="button" class="secondary" onClick={onDismiss}>
          Done
        </button>
      </div>
      <p aria-live="polite" class="meta">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'failed'
            ? 'Copy failed: select the text and copy it.'
            : ''}
      </p>
    </section>
  );
}
