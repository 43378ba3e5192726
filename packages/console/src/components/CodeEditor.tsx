import { createEditor, type PrismEditor } from 'prism-code-editor';
import { defaultKeymap, editHistory, editorCommands, setIgnoreTab } from 'prism-code-editor/commands';
import 'prism-code-editor/prism/languages/javascript';
import 'prism-code-editor/languages/clike';
import 'prism-code-editor/layout.css';
import 'prism-code-editor/themes/github-light.css';
import { useEffect, useRef } from 'preact/hooks';

// Tab moves the focus on (a keyboard user is not trapped in the editor); Ctrl+M toggles it to indent.
setIgnoreTab(true);

/** Props of `CodeEditor`. */
export interface CodeEditorProps {
  value: string;
  onInput: (value: string) => void;
  /** Id of the element that labels the editor (its `<label>` or heading). */
  labelledBy: string;
  /** Ids of elements that describe it (a hint, an error). */
  describedBy?: string | undefined;
  invalid?: boolean;
}

/**
 * A JavaScript code editor (prism-code-editor: a `<textarea>` under highlighted lines, so the
 * browser's own editing, selection and screen-reader support apply), with line numbers, bracket
 * closing, indentation commands and undo history. Its styles come from its CSS files, none inline.
 */
export function CodeEditor({ value, onInput, labelledBy, describedBy, invalid }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<PrismEditor | undefined>(undefined);
  const onInputRef = useRef(onInput);
  onInputRef.current = onInput;

  useEffect(() => {
    if (!host.current) return;
    const created = createEditor(
      host.current,
      {
        language: 'javascript',
        value,
        tabSize: 2,
        lineNumbers: true,
        onUpdate: (next) => onInputRef.current(next),
      },
      editorCommands(defaultKeymap),
      editHistory(),
    );
    editor.current = created;
    return () => {
      created.remove();
      editor.current = undefined;
    };
    // Created once; later values arrive through the effect below.
  }, []);

  useEffect(() => {
    const current = editor.current;
    if (current && current.value !== value) current.setOptions({ value });
  }, [value]);

  useEffect(() => {
    const textarea = editor.current?.textarea;
    if (!textarea) return;
    textarea.setAttribute('aria-labelledby', labelledBy);
    textarea.setAttribute('aria-multiline', 'true');
    if (describedBy) textarea.setAttribute('aria-describedby', describedBy);
    else textarea.removeAttribute('aria-describedby');
    if (invalid) textarea.setAttribute('aria-invalid', 'true');
    else textarea.removeAttribute('aria-invalid');
  }, [labelledBy, describedBy, invalid]);

  return <div class="code-editor" ref={host} />;
}
