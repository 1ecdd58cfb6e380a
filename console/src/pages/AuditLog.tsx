import type { PageProps } from '../session.ts';

/** Audit log (issue 39): the page's routes live under /audit_log/ (react-router descendant routes). */
export function AuditLog(_props: PageProps) {
  return (
    <>
      <h1>Audit log</h1>
      <p>This page is not built yet.</p>
    </>
  );
}
