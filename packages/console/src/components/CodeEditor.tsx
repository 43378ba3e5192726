import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PrismEditor } from 'prism-code-editor';
import { ProblemAlert } from './ProblemAlert.tsx';

/** Props of `CodeEditor`. */
export interface CodeEditorProps {
  /** The text the editor starts with. The editor owns its text then: to replace it, change the `key`. */
  initialValue: string;
  onInput: (value: string) => void;
  /** Id of the element that labels the editor. */
  labelledBy: string;
  /** Ids of elements that describe it (a hint, an error). */
  describedBy?: string | undefined;
  invalid?: boolean;
  /** What the text is: a script (default) or a JSON value. */
  language?: 'javascript' | 'json';
  /** Shown, not editable (a viewer's). Read once, like `initialValue`. */
  readOnly?: boolean;
}

/**
 * A JavaScript (or JSON) code editor (prism-code-editor: a `<textarea>` under highlighted lines, so the
 * browser's own editing, selection and screen-reader support apply). Its styles come from its CSS
 * files, none inline; its code loads with the first editor shown. Uncontrolled: it reports each
 * change through `onInput`.
 */
export function CodeEditor({
  initialValue,
  onInput,
  labelledBy,
  describedBy,
  invalid,
  language = 'javascript',
  readOnly = false,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const [editor, setEditor] = useState<PrismEditor | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(undefined);
  const onInputRef = useRef(onInput);
  onInputRef.current = onInput;
  // Read once: pushing each render's value back would race the typing (an effect runs after a
  // render that may already be a keystroke behind) and move the caret.
  const initial = useRef({ value: initialValue, language, readOnly });

  useEffect(() => {
    let created: PrismEditor | undefined;
    let gone = false;
    import('./createScriptEditor.ts').then(
      ({ createScriptEditor }) => {
        if (gone || !host.current) return;
        const { value, language: grammar, readOnly: fixed } = initial.current;
        created = createScriptEditor(host.current, value, (next) => onInputRef.current(next), grammar, fixed);
        setEditor(created);
      },
      (error: unknown) => setFailure(error),
    );
    return () => {
      gone = true;
      created?.remove();
    };
  }, []);

  // In the same commit as the rest of the form (an error shown beside a field whose
  // `aria-invalid` lags behind it would tell assistive technology two different things).
  useLayoutEffect(() => {
    const textarea = editor?.textarea;
    if (!textarea) return;
    textarea.setAttribute('aria-labelledby', labelledBy);
    textarea.setAttribute('aria-multiline', 'true');
    if (describedBy) textarea.setAttribute('aria-describedby', describedBy);
    else textarea.removeAttribute('aria-describedby');
    if (invalid) textarea.setAttribute('aria-invalid', 'true');
    else textarea.removeAttribute('aria-invalid');
  }, [editor, labelledBy, describedBy, invalid]);

  return (
    <>
      <div class="code-editor" ref={host} aria-busy={editor ? undefined : 'true'} />
      <ProblemAlert error={failure} />
    </>
  );
}
