import type { PageProps } from '../session.ts';

/** Locations (issue 39): the page's routes live under /locations/ (react-router descendant routes). */
export function Locations(_props: PageProps) {
  return (
    <>
      <h1>Locations</h1>
      <p>This page is not built yet.</p>
    </>
  );
}
