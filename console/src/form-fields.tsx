import type { ReactNode } from 'react';

/** How a form shows its fields: the class of a field's box, and the element and class of its hint and of its problem. */
export interface FieldLook {
  box: string;
  hintTag: 'p' | 'span';
  problemTag: 'p' | 'span';
  problemClass: string;
  /** The problem's id is the field's id with this after it. */
  problemSuffix: string;
}

/** The campaign form's look: paragraphs under the input. */
export const PARAGRAPH_FIELDS: FieldLook = { box: 'field', hintTag: 'p', problemTag: 'p', problemClass: 'field-error', problemSuffix: '-error' };

/** The menu editor's look: compact lines in a grid of fields. */
export const COMPACT_FIELDS: FieldLook = { box: 'menu-field', hintTag: 'span', problemTag: 'span', problemClass: 'menu-problem', problemSuffix: '-problem' };

/** The ids a field's input is described by: its hint and, when there is one, its problem. */
function describedBy(id: string, look: FieldLook, hint: unknown, problem: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : '', problem ? `${id}${look.problemSuffix}` : ''].filter(Boolean).join(' ') || undefined;
}

function Hint({ id, look, hint }: { id: string; look: FieldLook; hint: ReactNode }) {
  const Tag = look.hintTag;
  return hint ? (
    <Tag id={`${id}-hint`} className="hint">
      {hint}
    </Tag>
  ) : null;
}

function Problem({ id, look, problem }: { id: string; look: FieldLook; problem: string | undefined }) {
  const Tag = look.problemTag;
  return problem ? (
    <Tag id={`${id}${look.problemSuffix}`} className={look.problemClass}>
      {problem}
    </Tag>
  ) : null;
}

/** What every field has: its id (and input name), label, hint and problem, and the form's look. */
interface FieldProps {
  id: string;
  name?: string;
  label: string;
  hint?: ReactNode;
  problem: string | undefined;
  look: FieldLook;
}

/**
 * A labelled text (or number) field with what it means and its problem beside it: the input is described by both
 * (aria-describedby) and marked invalid while there is a problem.
 */
export function TextField({
  value,
  onChange,
  multiline = false,
  rows,
  required = false,
  maxLength,
  inputMode,
  type = 'text',
  min,
  max,
  autoComplete,
  ...field
}: FieldProps & {
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  rows?: number;
  required?: boolean;
  maxLength?: number;
  inputMode?: 'decimal' | 'numeric';
  type?: 'text' | 'number' | 'datetime-local';
  min?: number;
  max?: number;
  autoComplete?: 'off';
}) {
  const { id, name, label, hint, problem, look } = field;
  const shared = {
    id,
    name,
    value,
    maxLength,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': describedBy(id, look, hint, problem),
    'aria-required': required || undefined,
  };
  return (
    <div className={look.box}>
      <label htmlFor={id}>{label}</label>
      <Hint id={id} look={look} hint={hint} />
      {multiline ? (
        <textarea {...shared} rows={rows} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          {...shared}
          type={type}
          inputMode={inputMode}
          min={min}
          max={max}
          autoComplete={autoComplete}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      <Problem id={id} look={look} problem={problem} />
    </div>
  );
}

/** A checkbox with its label after it, what it means and its problem (the hint always describes it). */
export function CheckField({
  checked,
  onChange,
  ...field
}: FieldProps & { name: string; hint: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const { id, name, label, hint, problem, look } = field;
  return (
    <div className={`${look.box} check`}>
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        aria-describedby={describedBy(id, look, hint, problem)}
        aria-invalid={problem ? true : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      <Hint id={id} look={look} hint={hint} />
      <Problem id={id} look={look} problem={problem} />
    </div>
  );
}
