import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ErrorMessage, Progress } from './ErrorMessage.tsx';
import { useWrite } from './write.ts';

/**
 * The confirmation a page asks before a change that cannot be taken back: the question, the "Yes, …" button (focused when the
 * question appears, so a keyboard or screen reader user lands on it) and Cancel. With `running`, the change is under way:
 * both buttons wait and the progress line says what is being done.
 */
export function ConfirmStep({
  question,
  confirmLabel,
  onConfirm,
  onCancel,
  running,
}: {
  question: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  running?: string;
}) {
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!running) confirmButton.current?.focus();
  }, [running]);

  return (
    <div className="confirm">
      <p>{question}</p>
      <div className="actions">
        <button type="button" ref={confirmButton} disabled={Boolean(running)} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" className="secondary" disabled={Boolean(running)} onClick={onCancel}>
          Cancel
        </button>
      </div>
      {running ? <Progress label={running} /> : null}
    </div>
  );
}

/** The result of a change, said once by screen readers and focused when it appears or changes, so the user hears it. */
export function ResultLine({ text, className }: { text: string; className?: string }) {
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    line.current?.focus();
  }, [text]);

  return (
    <p className={className} role="status" tabIndex={-1} ref={line}>
      {text}
    </p>
  );
}

/**
 * A change behind a confirmation, as every such button goes: the trigger (`children`, given `ask` to put the question),
 * the question (ConfirmStep), then the progress line while `perform` runs; a refusal shows above the trigger again.
 */
export function ConfirmedAction({
  question,
  confirmLabel,
  progress,
  perform,
  children,
}: {
  question: ReactNode;
  confirmLabel: ReactNode;
  progress: string;
  perform: () => Promise<void>;
  children: (ask: () => void) => ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run } = useWrite();

  if (busy) return <Progress label={progress} />;
  if (confirming) {
    return (
      <ConfirmStep
        question={question}
        confirmLabel={confirmLabel}
        onConfirm={() => {
          setConfirming(false);
          void run(perform);
        }}
        onCancel={() => setConfirming(false)}
      />
    );
  }
  return (
    <>
      <ErrorMessage error={error} />
      {children(() => setConfirming(true))}
    </>
  );
}

/**
 * The section of a change that is done (a closed campaign, a refunded order): its heading, focused when the change was
 * just made here (`now`) so a keyboard or screen-reader user lands on it, and its words, announced then.
 */
export function DoneSection({ id, heading, now, children }: { id: string; heading: string; now: boolean; children: ReactNode }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (now) headingRef.current?.focus();
  }, [now]);

  return (
    <section aria-labelledby={id}>
      <h2 id={id} ref={headingRef} tabIndex={-1}>
        {heading}
      </h2>
      <p role={now ? 'status' : undefined}>{children}</p>
    </section>
  );
}
