import { Select } from 'antd';

export interface FilterSelectProps<Value extends string> {
  /** what the filter chooses, for screen readers (the select shows only the value) */
  label: string;
  value: Value;
  options: { value: Value; label: string }[];
  onChange: (value: Value) => void;
}

/** One filter above a table (a status, a period): a select of fixed width. */
export function FilterSelect<Value extends string>({
  label,
  value,
  options,
  onChange,
}: FilterSelectProps<Value>) {
  return (
    <Select<Value>
      aria-label={label}
      value={value}
      style={{ width: 130 }}
      onChange={onChange}
      options={options}
    />
  );
}
