import { MultiSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { orpc } from '../api/client.ts';

/** Picks systems by name among the first 1000 the person may read (`exclude` left out). */
export function SystemsPicker({
  label,
  description,
  required,
  error,
  exclude,
  value,
  onChange,
}: {
  label: string;
  description?: string;
  required?: boolean;
  error?: string;
  exclude?: string;
  value: string[];
  onChange: (ids: string[]) => void;
}) {
  const systems = useQuery(orpc.catalog.getSystems.queryOptions({ input: { limit: 1000 } }));
  return (
    <MultiSelect
      label={label}
      description={description}
      required={required}
      searchable
      data={(systems.data?.systems ?? [])
        .filter((system) => system.id !== exclude)
        .map((system) => ({ value: system.id, label: system.name }))}
      value={value}
      error={error}
      onChange={onChange}
    />
  );
}
