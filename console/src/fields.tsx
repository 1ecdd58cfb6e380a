/** A choice of options with its visible label (the label wraps the select, so a screen reader names it). */
export function SelectField({
  label,
  name,
  options,
  defaultValue,
  value,
  onChange,
}: {
  label: string;
  name: string;
  options: readonly { value: string | number; label: string }[];
  defaultValue?: string | number;
  value?: string | number;
  onChange?: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <select name={name} defaultValue={defaultValue} value={value} onChange={onChange ? (event) => onChange(event.target.value) : undefined}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
