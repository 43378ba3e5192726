import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { BrowserdeckApi } from '../api/BrowserdeckApi.ts';
import type { User } from '../api/types.ts';

/** What every screen reaches: the API, the signed-in user, and the status line. */
export interface ConsoleState {
  api: BrowserdeckApi;
  user: User | undefined;
  /** Says `message` in the page's `aria-live` status region (and shows it). */
  announce: (message: string) => void;
}

/** The console's shared state, provided by `App`. */
export const ConsoleContext = createContext<ConsoleState | undefined>(undefined);

/** The console's shared state; only inside `App`. */
export function useConsole(): ConsoleState {
  const state = useContext(ConsoleContext);
  if (!state) throw new Error('useConsole outside the console');
  return state;
}
