import { useEffect, useRef, type ReactNode } from 'react';
import { Progress } from './ErrorMessage.tsx';

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
