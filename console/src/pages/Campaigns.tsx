import type { PageProps } from '../session.ts';

/** Campaigns (issue 39): the page's routes live under /campaigns/ (react-router descendant routes). */
export function Campaigns(_props: PageProps) {
  return (
    <>
      <h1>Campaigns</h1>
      <p>This page is not built yet.</p>
    </>
  );
}
