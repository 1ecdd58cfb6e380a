import { useEffect, useRef, useState } from 'react';

/**
 * A signing secret the API answered once (an endpoint's create, a roll): shown this once, with a copy button and the
 * words that it will not be shown again. Focus moves to its heading so a screen reader reads it at once.
 */
export function SecretOnce({ secret, url, onDone }: { secret: string; url: string; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed'>();

  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <section className="secret-once" aria-labelledby="secret-heading">
      <h2 id="secret-heading" ref={heading} tabIndex={-1}>
        Store the signing secret now
      </h2>
      <p>
        This is the secret that signs every delivery to <span className="url">{url}</span>. <strong>It will not be shown again</strong>: copy it now into your
        receiver&apos;s settings. If it is lost, change the secret.
      </p>
      <p className="secret">
        <code>{secret}</code>
      </p>
      <div className="actions">
        <button type="button" onClick={() => void copy()}>
          Copy the secret
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          I have stored it
        </button>
      </div>
      <p role="status">
        {copied === 'yes' ? 'The secret is copied.' : copied === 'failed' ? 'Copying did not work here: select the secret and copy it yourself.' : ''}
      </p>
    </section>
  );
}
