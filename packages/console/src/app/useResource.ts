import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** What `useResource` gives a screen. */
export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again now (after a change the screen made). */
  reload: () => Promise<void>;
}

/**
 * Loads `load()` when `key` changes (dropping what an older key loaded), and again every `pollMs`
 * while the page is visible: a hidden tab polls nothing and loads again as soon as it is shown.
 * Changing `pollMs` (e.g. to stop once a session has ended) keeps the data.
 */
export function useResource<T>(load: () => Promise<T>, key: string, pollMs?: number): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(true);
  const loadRef = useRef(load);
  loadRef.current = load;
  const generation = useRef(0);

  const run = useCallback(async () => {
    const mine = generation.current;
    try {
      const value = await loadRef.current();
      if (mine !== generation.current) return;
      setData(value);
      setError(undefined);
    } catch (failure) {
      if (mine !== generation.current) return;
      setError(failure);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    generation.current += 1;
    setData(undefined);
    setError(undefined);
    setLoading(true);
    void run();
    return () => {
      generation.current += 1;
    };
  }, [key, run]);

  useEffect(() => {
    if (!pollMs) return;
    let timer: number | undefined;
    let stopped = false;
    const schedule = () => {
      timer = window.setTimeout(async () => {
        if (document.visibilityState === 'visible') await run();
        if (!stopped) schedule();
      }, pollMs);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void run();
    };
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [key, pollMs, run]);

  return { data, error, loading, reload: run };
}
