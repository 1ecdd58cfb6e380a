import type { PageProps } from '../session.ts';

/** Webhooks (issue 39): the page's routes live under /webhooks/ (react-router descendant routes). */
export function Webhooks(_props: PageProps) {
  return (
    <>
      <h1>Webhooks</h1>
      <p>This page is not built yet.</p>
    </>
  );
}
