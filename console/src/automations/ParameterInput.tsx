import { NumberInput, Select, Textarea, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ParameterDef } from '../api/types';
import { messageOf } from '../api/errors';
import { hasLookup, lookup, type Option } from './lookups';

interface Props {
  def: ParameterDef;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

const labelOf = (key: string) => key.replace(/_id$/, '').replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** One action parameter, as its definition in GET /adaptors says: a list, a number, a record by name, or text. */
export function ParameterInput({ def, value, onChange, error }: Props) {
  const common = {
    label: labelOf(def.parameter_key),
    description: def.default_value ? `${def.description} Default: ${def.default_value}.` : def.description,
    required: def.required,
    error,
  };
  if (def.value_type === 'ENUM') {
    const data = (def.allowed_values ?? []).map((v) => ({ value: v, label: v }));
    return <Select {...common} data={data} value={value || null} onChange={(v) => onChange(v ?? '')} clearable={!def.required} placeholder={def.default_value ?? 'Choose'} />;
  }
  if (def.value_type === 'INTEGER') {
    return (
      <NumberInput
        {...common}
        value={value === '' ? '' : Number(value)}
        onChange={(v) => onChange(v === '' ? '' : String(v))}
        min={def.minimum ?? undefined}
        max={def.maximum ?? undefined}
        allowDecimal={false}
        placeholder={def.default_value ?? undefined}
      />
    );
  }
  if (def.value_type === 'UUID' && hasLookup(def.parameter_type)) return <RecordSelect {...common} type={def.parameter_type} value={value} onChange={onChange} />;
  if (def.value_type === 'STRING' && (def.maximum ?? 0) > 500) {
    return <Textarea {...common} autosize minRows={3} maxLength={def.maximum ?? undefined} value={value} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
  return <TextInput {...common} maxLength={def.maximum ?? undefined} value={value} onChange={(e) => onChange(e.currentTarget.value)} />;
}

type RecordSelectProps = Omit<Props, 'def'> & { type: string; label: string; description: string; required: boolean };

/** A webhook, template, user, department, ... chosen by name; the stored value is its id. */
function RecordSelect({ type, value, onChange, error, ...rest }: RecordSelectProps) {
  const [options, setOptions] = useState<Option[]>([]);
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    let current = true;
    lookup(type).then(
      (o) => current && setOptions(o),
      (e) => current && setFailure(messageOf(e)),
    );
    return () => {
      current = false;
    };
  }, [type]);
  // A stored id this user cannot list (another page of 100, a deleted record) stays visible.
  const data = value && !options.some((o) => o.value === value) ? [...options, { value, label: value }] : options;
  return (
    <Select
      {...rest}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      clearable={!rest.required}
      nothingFoundMessage="Nothing found"
      placeholder={options.length ? 'Choose by name' : rest.required ? 'None yet: make one first' : 'None yet (optional)'}
      error={error ?? failure}
    />
  );
}
