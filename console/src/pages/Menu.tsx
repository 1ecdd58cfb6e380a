import type { PageProps } from '../session.ts';

/** Menu (issue 39): the page's routes live under /menu/ (react-router descendant routes). */
export function Menu(_props: PageProps) {
  return (
    <>
      <h1>Menu</h1>
      <p>This page is not built yet.</p>
    </>
  );
}
