import { useState, type FormEvent } from 'react';
import type { LevelUpClient } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { answered, asConsoleError, ConsoleError, loadApiKey, type Session } from '../session.ts';

/** Each person signs in with their own email and password (docs/merchant-api.md, "Login"). */
export function SignIn({ client, notice, onSignedIn }: { client: LevelUpClient; notice?: string; onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ConsoleError>();

  async function signIn(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const apiKey = await loadApiKey();
      if (!apiKey) throw new ConsoleError('This console is not set up yet (no app key). Ask your operator.', 0, undefined);
      const login = answered(await client.POST('/v15/access_tokens', { body: { access_token: { api_key: apiKey, username: email, password } } }));
      const { token, merchant_id: merchantId } = login.access_token;
      if (merchantId === null || merchantId === undefined)
        throw new ConsoleError('This login is not a merchant staff login. Sign in with your own staff email.', 0, undefined);
      setPassword('');
      onSignedIn({ token, merchantId });
    } catch (failure) {
      setError(asConsoleError(failure));
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1>Sign in to the merchant console</h1>
      {notice ? <p role="status">{notice}</p> : null}
      <form onSubmit={(event) => void signIn(event)} aria-busy={busy}>
        <label htmlFor="email">Email</label>
        <input id="email" type="email" autoComplete="username" required maxLength={254} value={email} onChange={(event) => setEmail(event.target.value)} />
        <label htmlFor="password">Password</label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={128}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {busy ? <Progress label="Signing in…" /> : null}
      <ErrorMessage error={error} />
    </main>
  );
}
