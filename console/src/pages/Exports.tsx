import type { PageProps } from '../session.ts';

/** Exports (issue 39): the page's routes live under /exports/ (react-router descendant routes). */
export function Exports(_props: PageProps) {
  return (
    <>
      <h1>Exports</h1>
      <p>This page is not built yet.</p>
    </>
  );
}
