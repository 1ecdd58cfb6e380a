import type { ReactNode } from 'react';
import type { ConsoleError } from './session.ts';

/** An error in words, with the request id support asks for; role="alert" so a screen reader says it at once. */
export function ErrorMessage({ error }: { error: ConsoleError | undefined }) {
  if (!error) return null;
  return (
    <div className="error" role="alert">
      <p>{error.message}</p>
      {error.requestId ? (
        <p className="reference">
          Reference for support: <code>{error.requestId}</code>
        </p>
      ) : null}
    </div>
  );
}

/** A polite progress line for anything that waits on the network. */
export function Progress({ label }: { label: string }) {
  return (
    <p className="progress" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/**
 * Where a page shows what it reads: the read's error in words, its progress line while it loads, then `children` with the
 * data (an empty list is data: the children say it is empty).
 */
export function WhenLoaded<T>({
  data,
  error,
  progress,
  children,
}: {
  data: T | undefined;
  error: ConsoleError | undefined;
  progress: string;
  children: (data: T) => ReactNode;
}) {
  if (error) return <ErrorMessage error={error} />;
  if (data === undefined) return <Progress label={progress} />;
  return children(data);
}

/** A page made of the merchant's locations: as WhenLoaded, and `none` in words when the merchant has no location yet. */
export function WhenLocations<T>({
  locations,
  error,
  none,
  children,
}: {
  locations: T[] | undefined;
  error: ConsoleError | undefined;
  none: string;
  children: (locations: T[]) => ReactNode;
}) {
  return (
    <WhenLoaded data={locations} error={error} progress="Loading your locations…">
      {(loaded) => (loaded.length === 0 ? <p>{none}</p> : children(loaded))}
    </WhenLoaded>
  );
}
