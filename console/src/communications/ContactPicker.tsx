import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';

export interface PickedContact {
  id: string;
  label: string;
}

interface Props {
  label: string;
  value: PickedContact | null;
  onChange: (contact: PickedContact | null) => void;
  error?: string;
  description?: string;
  required?: boolean;
  w?: number | string;
}

const labelOf = (c: { contact_name: string; code: string | null }) => (c.code ? `${c.contact_name} (${c.code})` : c.contact_name);

/** A contact found by what is typed (GET /contacts `search_value`: name, code, phone, loyalty identifier), 10 at a time. */
export function ContactPicker({ label, value, onChange, error, description, required, w }: Props) {
  const [search, setSearch] = useState(value?.label ?? '');
  const [typed] = useDebouncedValue(search.trim(), 250);
  const [found, setFound] = useState<PickedContact[]>([]);
  const [failure, setFailure] = useState<string>();

  // A contact chosen elsewhere (the address of the list) shows its name in the box.
  useEffect(() => setSearch(value?.label ?? ''), [value?.id, value?.label]);

  useEffect(() => {
    // Choosing an option writes its label into the box: that is not a new search.
    if (!typed || typed === value?.label) return;
    let current = true;
    ok(api.GET('/contacts', { params: { query: { search_value: typed, size: 10 } } })).then(
      (page) => current && (setFound(page.contacts.map((c) => ({ id: c.id, label: labelOf(c) }))), setFailure(undefined)),
      (err: Error) => current && setFailure(err.message),
    );
    return () => {
      current = false;
    };
  }, [typed]);

  const options = [...(value ? [value] : []), ...found.filter((c) => c.id !== value?.id)];
  return (
    <Select
      label={label}
      description={description}
      required={required}
      placeholder="Type a name, code or phone"
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      data={options.map((c) => ({ value: c.id, label: c.label }))}
      // The API searched already: show what it found as it is.
      filter={({ options: all }) => all}
      value={value?.id ?? null}
      onChange={(id) => onChange(options.find((c) => c.id === id) ?? null)}
      nothingFoundMessage={typed ? 'No contact found' : 'Type to search'}
      error={error ?? failure}
      w={w}
    />
  );
}
