import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from '@social-network/sdk';

export interface Loaded<T> {
  data?: T;
  problem?: ApiProblem;
  loading: boolean;
  reload: () => Promise<void>;
}

export const asProblem = (error: unknown): ApiProblem =>
  error instanceof ApiProblem
    ? error
    : new ApiProblem(0, 'console_error', error instanceof Error ? error.message : String(error));

/** Loads data for a page; keeps the last good data while reloading, and the problem if it fails. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; problem?: ApiProblem; loading: boolean }>({ loading: true });
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const call = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await load();
      if (call === latest.current) setState({ data, loading: false });
    } catch (error) {
      if (call === latest.current) setState((s) => ({ data: s.data, problem: asProblem(error), loading: false }));
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { ...state, reload };
}

/** Runs `tick` every `ms` while the page is visible (and once when it becomes visible again). */
export function useInterval(tick: () => void, ms: number, active = true): void {
  const saved = useRef(tick);
  saved.current = tick;
  useEffect(() => {
    if (!active) return;
    const run = () => {
      if (document.visibilityState === 'visible') saved.current();
    };
    const timer = setInterval(run, ms);
    document.addEventListener('visibilitychange', run);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', run);
    };
  }, [ms, active]);
}
