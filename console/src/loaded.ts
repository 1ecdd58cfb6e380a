import { useCallback, useEffect, useState } from 'react';
import { allItems, type LevelUpClient } from '../../clients/typescript/index.ts';
import { asConsoleError, type ConsoleError } from './session.ts';

/** What a page has read: nothing yet (show progress), the data, or the error in words. */
export interface Loaded<T> {
  data: T | undefined;
  error: ConsoleError | undefined;
  /** Reads again (after a change), keeping what is shown until the new answer arrives. */
  reload: () => void;
  /** A read is under way (the first, or a reload whose answer has not arrived): what is shown may be about to change. */
  loading: boolean;
}

/**
 * Runs `load` when the page opens and whenever `load` changes (wrap it in useCallback with its inputs), and drops an
 * answer that arrives after the page moved on: the one place every page's reads go through.
 */
export function useLoaded<T>(load: () => Promise<T>): Loaded<T> {
  // The read each answer came from (`load` and the reload round): a newer read is loading until its answer arrives.
  const [state, setState] = useState<{ data?: T; error?: ConsoleError; from?: { load: () => Promise<T>; round: number } }>({});
  const [round, setRound] = useState(0);

  useEffect(() => {
    let current = true;
    const from = { load, round };
    load().then(
      (data) => {
        if (current) setState({ data, from });
      },
      (failure: unknown) => {
        if (current) setState({ error: asConsoleError(failure), from });
      },
    );
    return () => {
      current = false;
    };
  }, [load, round]);

  const reload = useCallback(() => setRound((value) => value + 1), []);
  const loading = state.from?.load !== load || state.from.round !== round;
  return { data: state.data, error: state.error, reload, loading };
}

/** A location as the console's pickers and tables name it. */
export interface LocationName {
  id: number;
  name: string;
}

/** Every location of the merchant (`.../all_locations`, all pages, by id), hidden ones included. */
export function readLocations(client: LevelUpClient, merchantId: number) {
  return allItems(client, '/v15/merchants/{merchant_id}/all_locations', { params: { path: { merchant_id: String(merchantId) } } }).then((entries) =>
    entries.map(({ location }) => location),
  );
}

/** Every location of the merchant (`.../all_locations`, all pages), by id and name. */
export function useLocations(client: LevelUpClient, merchantId: number): Loaded<LocationName[]> {
  const load = useCallback(
    () =>
      readLocations(client, merchantId).then((locations) =>
        locations.map((location) => ({ id: location.id, name: location.name ?? `Location ${location.id}` })),
      ),
    [client, merchantId],
  );
  return useLoaded(load);
}
