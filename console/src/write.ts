import { useState } from 'react';
import { asConsoleError, type ConsoleError } from './session.ts';

/** A change a page sends: whether it is under way, and its refusal in words (`setError` for a check of the page's own). */
export interface Write {
  busy: boolean;
  error: ConsoleError | undefined;
  setError: (error: ConsoleError | undefined) => void;
  /** Clears the last refusal, marks the change under way until `send` settles, and keeps its failure to show (then `onFailure`). */
  run: (send: () => Promise<void>, onFailure?: () => void) => Promise<void>;
}

/** The state of one change a page sends (a form's save, a button's action): one place for its progress and refusal. */
export function useWrite(): Write {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ConsoleError>();

  async function run(send: () => Promise<void>, onFailure?: () => void) {
    setBusy(true);
    setError(undefined);
    try {
      await send();
    } catch (failure) {
      setError(asConsoleError(failure));
      onFailure?.();
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, setError, run };
}
