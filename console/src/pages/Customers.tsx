import { useState, type FormEvent } from 'react';
import { Route, Routes, useNavigate } from 'react-router';
import type { ApiErrors } from '../../../clients/typescript/index.ts';
import { formText } from '../customers-form.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { answered, asConsoleError, ConsoleError, type PageProps } from '../session.ts';
import { CustomerDetail, type FoundBy } from './CustomersDetail.tsx';
import { PageNotFound } from '../not-found.tsx';

/** Customers (issue 39): finding one at /customers, a customer's page at /customers/{user_id}. */
export function Customers(props: PageProps) {
  return (
    <Routes>
      <Route index element={<FindCustomer {...props} />} />
      <Route path=":userId" element={<CustomerDetail {...props} />} />
      <Route path="*" element={<PageNotFound back="/customers" backLabel="Find a customer" />} />
    </Routes>
  );
}

type LookupBy = FoundBy['by'];

/**
 * The lookup's refusals in the words the person at the counter needs: the API's own codes (docs/merchant-api.md,
 * "Customers") say whether nobody matched, a shared phone needs the email instead, or the lookups ran out for now.
 */
function lookupRefusal(by: LookupBy, status: number, errors: ApiErrors | undefined, requestId: string | undefined): ConsoleError | undefined {
  const error = errors?.[0]?.error;
  const what = by === 'email' ? 'email' : 'phone number';
  if (status === 404) return new ConsoleError(`None of your customers has this ${what}. Check it, or ask the customer how they signed up.`, status, requestId);
  if (status === 422 && error?.code === 'ambiguous')
    return new ConsoleError('More than one of your customers has this phone number. Look the customer up by their email instead.', status, requestId);
  if (status === 422 && error?.property === 'email')
    return new ConsoleError('This is not a complete email address. Check it and try again.', status, requestId);
  if (status === 422 && error?.property === 'phone')
    return new ConsoleError('This is not a phone number. Type its digits, with the country code if it is not a US number.', status, requestId);
  if (status === 429) return new ConsoleError('Too many lookups for now. Wait a few minutes, then try again.', status, requestId);
  return undefined;
}

/** Finds one customer by exact email or phone (POST .../customer_lookups: the value travels in the body, never the address). */
function FindCustomer({ client, merchantId }: PageProps) {
  const navigate = useNavigate();
  const [by, setBy] = useState<LookupBy>('email');
  const [finding, setFinding] = useState(false);
  const [error, setError] = useState<ConsoleError>();

  async function find(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = formText(new FormData(event.currentTarget), 'value').trim();
    if (value === '') {
      setError(new ConsoleError(`Type the customer's ${by === 'email' ? 'email' : 'phone number'} first.`, 0, undefined));
      return;
    }
    setFinding(true);
    setError(undefined);
    try {
      const answer = await client.POST('/v15/merchants/{merchant_id}/customer_lookups', {
        params: { path: { merchant_id: String(merchantId) } },
        body: { customer_lookup: by === 'email' ? { email: value } : { phone: value } },
      });
      if (!answer.response.ok) {
        const refusal = lookupRefusal(by, answer.response.status, answer.error, answer.response.headers.get('X-Request-Id') ?? undefined);
        if (refusal) throw refusal;
      }
      const { customer } = answered(answer);
      // The email or phone goes along in the history entry, not the address: it names the customer on their page.
      const foundBy: FoundBy = { by, value };
      void navigate(`/customers/${customer.id}`, { state: { foundBy } });
    } catch (failure) {
      setError(asConsoleError(failure));
      setFinding(false);
    }
  }

  return (
    <>
      <h1>Customers</h1>
      <p className="hint">
        Find a customer by the exact email or phone number they signed up with. Only your own customers are found: people who have credit, gift card value,
        loyalty progress or orders here.
      </p>
      <form className="customer-find" aria-label="Find a customer" onSubmit={(event) => void find(event)} aria-busy={finding}>
        <fieldset>
          <legend>Find by</legend>
          <label className="choice">
            <input type="radio" name="by" value="email" checked={by === 'email'} onChange={() => setBy('email')} />
            Email
          </label>
          <label className="choice">
            <input type="radio" name="by" value="phone" checked={by === 'phone'} onChange={() => setBy('phone')} />
            Phone
          </label>
        </fieldset>
        {/* key: switching between email and phone starts an empty field of the right kind. */}
        <label key={by}>
          {by === 'email' ? "Customer's email" : "Customer's phone number"}
          {by === 'email' ? (
            <input type="email" name="value" autoComplete="off" maxLength={254} required />
          ) : (
            <input type="tel" name="value" autoComplete="off" maxLength={32} required />
          )}
        </label>
        <button type="submit" disabled={finding}>
          Find the customer
        </button>
      </form>
      {finding ? <Progress label="Looking for the customer…" /> : null}
      <ErrorMessage error={error} />
    </>
  );
}
