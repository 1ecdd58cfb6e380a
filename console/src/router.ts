import { useEffect, useState } from 'react';

/**
 * The console's pages are paths under /console/ (a reload or a shared link opens the same page: both servers answer
 * index.html for any of them). A few pages need no routing library: the path is state, links push it.
 */
const BASE = import.meta.env.BASE_URL;

export function currentPage(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '';
  return path.replace(/\/+$/, '');
}

export function navigate(page: string): void {
  window.history.pushState(null, '', `${BASE}${page}`);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function usePage(): string {
  const [page, setPage] = useState(currentPage);
  useEffect(() => {
    const update = () => setPage(currentPage());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return page;
}

export const pageHref = (page: string): string => `${BASE}${page}`;
