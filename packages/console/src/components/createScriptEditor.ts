import { createEditor, type PrismEditor } from 'prism-code-editor';
import { defaultKeymap, editHistory, editorCommands, setIgnoreTab } from 'prism-code-editor/commands';
import 'prism-code-editor/prism/languages/javascript';
import 'prism-code-editor/prism/languages/json';
import 'prism-code-editor/languages/clike';
import 'prism-code-editor/languages/json';
import 'prism-code-editor/layout.css';
import 'prism-code-editor/themes/github-light.css';

// Tab moves the focus on (a keyboard user is not trapped in the editor); Ctrl+M toggles it to indent.
setIgnoreTab(true);

/**
 * A JavaScript (or JSON) editor (prism-code-editor) in `host`: line numbers, bracket closing,
 * indentation commands, undo history. A module of its own, loaded when an agent is edited.
 */
export function createScriptEditor(
  host: HTMLElement,
  value: string,
  onUpdate: (value: string) => void,
  language: 'javascript' | 'json' = 'javascript',
  readOnly = false,
): PrismEditor {
  return createEditor(
    host,
    { language, value, tabSize: 2, lineNumbers: true, onUpdate, readOnly },
    editorCommands(defaultKeymap),
    editHistory(),
  );
}
