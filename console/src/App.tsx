import { useCallback, useEffect, useState } from 'react';
import { matchPath, NavLink, Route, Routes, useLocation } from 'react-router';
import { ErrorMessage, Progress } from './ErrorMessage.tsx';
import { AuditLog } from './pages/AuditLog.tsx';
import { Campaigns } from './pages/Campaigns.tsx';
import { Customers } from './pages/Customers.tsx';
import { Exports } from './pages/Exports.tsx';
import { GiftCards } from './pages/GiftCards.tsx';
import { Home } from './pages/Home.tsx';
import { Locations } from './pages/Locations.tsx';
import { Menu } from './pages/Menu.tsx';
import { OrderDetail } from './pages/OrderDetail.tsx';
import { Orders } from './pages/Orders.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { Staff } from './pages/Staff.tsx';
import { Webhooks } from './pages/Webhooks.tsx';
import { answered, asConsoleError, client, keepSession, loadSession, type ConsoleError, type Session, type StaffMember } from './session.ts';
import { PageNotFound } from './not-found.tsx';

/**
 * The pages in the navigation, in order (the API checks the role again on every request). Each area's page owns
 * the addresses under its path (react-router descendant routes), so an area adds its own detail pages there.
 */
const PAGES = [
  { path: '/', title: 'Home', element: Home },
  { path: '/orders', title: 'Orders', element: Orders },
  { path: '/customers', title: 'Customers', element: Customers },
  { path: '/gift_cards', title: 'Gift cards', element: GiftCards },
  { path: '/campaigns', title: 'Campaigns', element: Campaigns },
  { path: '/locations', title: 'Locations', element: Locations },
  { path: '/menu', title: 'Menu', element: Menu },
  { path: '/staff', title: 'Staff', element: Staff },
  { path: '/webhooks', title: 'Webhooks', element: Webhooks },
  { path: '/audit_log', title: 'Audit log', element: AuditLog },
  { path: '/exports', title: 'Exports', element: Exports },
] as const;

/** The tab's title: the order's own page, else the area the address is in. */
function titleOf(pathname: string): string {
  if (matchPath('/orders/:uuid', pathname)) return 'Order';
  return PAGES.find((entry) => matchPath(entry.path === '/' ? '/' : `${entry.path}/*`, pathname))?.title ?? 'Not found';
}

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [me, setMe] = useState<StaffMember>();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<ConsoleError>();
  const [signingOut, setSigningOut] = useState(false);
  const { pathname } = useLocation();

  const changeSession = useCallback((next: Session | undefined, message?: string) => {
    keepSession(next);
    setSession(next);
    setMe(undefined);
    setNotice(message);
    setError(undefined);
  }, []);

  useEffect(() => {
    if (!session) return;
    let current = true;
    client
      .GET('/v15/merchants/{merchant_id}/staff/me', { params: { path: { merchant_id: String(session.merchantId) } } })
      .then((answer) => {
        if (current) setMe(answered(answer).staff);
      })
      .catch((failure: unknown) => {
        if (!current) return;
        const shown = asConsoleError(failure);
        if (shown.status === 401) changeSession(undefined, shown.message);
        else setError(shown);
      });
    return () => {
      current = false;
    };
  }, [session, changeSession]);

  async function signOut() {
    setSigningOut(true);
    try {
      // Revokes the token on the server (DELETE /v15/access_tokens): a copy of it is refused from now on.
      const answer = await client.DELETE('/v15/access_tokens', {});
      if (!answer.response.ok && answer.response.status !== 401) answered(answer);
      changeSession(undefined, 'You are signed out.');
    } catch (failure) {
      setError(asConsoleError(failure));
    } finally {
      setSigningOut(false);
    }
  }

  useEffect(() => {
    const title = titleOf(pathname);
    document.title = session ? `${title} · Merchant console` : 'Sign in · Merchant console';
  }, [pathname, session]);

  if (!session) return <SignIn client={client} notice={notice} onSignedIn={(next) => changeSession(next)} />;

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <p className="brand">Merchant console</p>
        <nav aria-label="Main">
          <ul>
            {PAGES.map((entry) => (
              <li key={entry.path}>
                {/* NavLink sets aria-current="page" on the current page's link; "end": Home is not current on /orders. */}
                <NavLink to={entry.path} end={entry.path === '/'}>
                  {entry.title}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          {me ? (
            <p>
              {me.name} <span className="role">({me.role})</span>
            </p>
          ) : null}
          <button type="button" onClick={() => void signOut()} disabled={signingOut}>
            Sign out
          </button>
        </div>
      </header>
      {signingOut ? <Progress label="Signing out…" /> : null}
      <ErrorMessage error={error} />
      <main id="main" tabIndex={-1}>
        {me ? (
          <Routes>
            {PAGES.map(({ path, element: Page }) =>
              path === '/' ? (
                <Route key={path} index element={<Page client={client} merchantId={session.merchantId} me={me} />} />
              ) : (
                <Route key={path} path={`${path.slice(1)}/*`} element={<Page client={client} merchantId={session.merchantId} me={me} />} />
              ),
            )}
            <Route path="orders/:uuid" element={<OrderDetail client={client} merchantId={session.merchantId} me={me} />} />
            <Route path="*" element={<PageNotFound back="/" backLabel="Go to the home page" />} />
          </Routes>
        ) : (
          <Progress label="Loading your account…" />
        )}
      </main>
    </>
  );
}
