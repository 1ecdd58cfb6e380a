import { lazy, Suspense } from 'react';
import { Progress } from '../ErrorMessage.tsx';
import type { PageProps } from '../session.ts';

/** The editor is loaded when the page is opened, not with the console's first load (docs/console.md, "Menu"). */
const MenuPage = lazy(() => import('./MenuPage.tsx'));

/** Menu (issue 39): a location's order-ahead menu, its draft, publish and discard (docs/merchant-api.md, "Menus"). */
export function Menu(props: PageProps) {
  return (
    <Suspense fallback={<Progress label="Loading the menu editor…" />}>
      <MenuPage {...props} />
    </Suspense>
  );
}
