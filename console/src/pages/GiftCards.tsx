import type { PageProps } from '../session.ts';

/** Gift cards (issue 39): the page's routes live under /gift_cards/ (react-router descendant routes). */
export function GiftCards(_props: PageProps) {
  return (
    <>
      <h1>Gift cards</h1>
      <p>This page is not built yet.</p>
    </>
  );
}
