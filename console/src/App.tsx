import { useCallback, useEffect, useState } from 'react';
import { Link, matchPath, NavLink, Route, Routes, useLocation } from 'react-router';
import { ErrorMessage, Progress } from './ErrorMessage.tsx';
import { Home } from './pages/Home.tsx';
import { OrderDetail } from './pages/OrderDetail.tsx';
import { Orders } from './pages/Orders.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { answered, asConsoleError, client, keepSession, loadSession, type ConsoleError, type Session, type StaffMember } from './session.ts';

/** The pages in the navigation, in order (the API checks the role again on every request). */
const PAGES = [
  { path: '/', title: 'Home' },
  { path: '/orders', title: 'Orders' },
] as const;

/** Every route's title, for the tab: the navigation's pages and those opened from them. */
const TITLES = [...PAGES, { path: '/orders/:uuid', title: 'Order' }] as const;

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
    const title = TITLES.find((entry) => matchPath(entry.path, pathname))?.title ?? 'Not found';
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
            <Route index element={<Home client={client} merchantId={session.merchantId} role={me.role} />} />
            <Route path="orders" element={<Orders client={client} merchantId={session.merchantId} />} />
            <Route path="orders/:uuid" element={<OrderDetail client={client} merchantId={session.merchantId} me={me} />} />
            <Route
              path="*"
              element={
                <>
                  <h1>Page not found</h1>
                  <p>
                    There is no such page. <Link to="/">Go to the home page</Link>.
                  </p>
                </>
              }
            />
          </Routes>
        ) : (
          <Progress label="Loading your account…" />
        )}
      </main>
    </>
  );
}
