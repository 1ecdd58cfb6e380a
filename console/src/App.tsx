import { useCallback, useEffect, useState } from 'react';
import type { components } from '../../clients/typescript/index.ts';
import { ErrorMessage, Progress } from './ErrorMessage.tsx';
import { Home } from './pages/Home.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { navigate, pageHref, usePage } from './router.ts';
import { answered, asConsoleError, client, keepSession, loadSession, type ConsoleError, type Session } from './session.ts';

type StaffMember = components['schemas']['StaffMember']['staff'];

/** The pages in the navigation, in order; each says who may open it (the API checks again on every request). */
const PAGES = [{ page: '', title: 'Home' }] as const;

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession);
  const [me, setMe] = useState<StaffMember>();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<ConsoleError>();
  const [signingOut, setSigningOut] = useState(false);
  const page = usePage();

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
    const title = PAGES.find((entry) => entry.page === page)?.title ?? 'Not found';
    document.title = session ? `${title} · Merchant console` : 'Sign in · Merchant console';
  }, [page, session]);

  if (!session) return <SignIn client={client} notice={notice} onSignedIn={(next) => changeSession(next)} />;

  const known = PAGES.some((entry) => entry.page === page);
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
              <li key={entry.page}>
                <a
                  href={pageHref(entry.page)}
                  aria-current={entry.page === page ? 'page' : undefined}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(entry.page);
                  }}
                >
                  {entry.title}
                </a>
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
        {!known ? (
          <>
            <h1>Page not found</h1>
            <p>
              There is no such page. <a href={pageHref('')}>Go to the home page</a>.
            </p>
          </>
        ) : me ? (
          <Home client={client} merchantId={session.merchantId} role={me.role} />
        ) : (
          <Progress label="Loading your account…" />
        )}
      </main>
    </>
  );
}
