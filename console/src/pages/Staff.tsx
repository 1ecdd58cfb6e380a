import type { PageProps } from '../session.ts';

/** Staff (issue 39): the page's routes live under /staff/ (react-router descendant routes). */
export function Staff(_props: PageProps) {
  return (
    <>
      <h1>Staff</h1>
      <p>This page is not built yet.</p>
    </>
  );
}
