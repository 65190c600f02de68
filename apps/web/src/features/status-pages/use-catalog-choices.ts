import { useQuery } from '@tanstack/react-query';
import { orpc } from '../../api/client.ts';

/**
 * The systems and groups a section may list (the first 1000 of each the person may read), as
 * picker options keyed `system:<id>` / `group:<id>`, and each one's catalog name by that key.
 */
export function useCatalogChoices() {
  const systems = useQuery(orpc.catalog.getSystems.queryOptions({ input: { limit: 1000 } }));
  const groups = useQuery(orpc.catalog.getGroups.queryOptions({ input: { limit: 1000 } }));
  const systemOptions = (systems.data?.systems ?? []).map((system) => ({
    value: `system:${system.id}`,
    label: system.name,
  }));
  const groupOptions = (groups.data?.groups ?? []).map((group) => ({
    value: `group:${group.id}`,
    label: group.name,
  }));
  return {
    options: [
      { group: 'Systems', items: systemOptions },
      { group: 'Groups', items: groupOptions },
    ],
    nameOf: new Map(
      [...systemOptions, ...groupOptions].map((option) => [option.value, option.label]),
    ),
    error: systems.error ?? groups.error,
  };
}
