import type { PageProps } from '../session.ts';

/** Customers (issue 39): the page's routes live under /customers/ (react-router descendant routes). */
export function Customers(_props: PageProps) {
  return (
    <>
      <h1>Customers</h1>
      <p>This page is not built yet.</p>
    </>
  );
}
