import { Alert, Anchor, List } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { orpc } from '../../api/client.ts';

/** Unresolved incidents the person may see, above the systems, so they are seen first. */
export function OpenIncidents({ refreshMs }: { refreshMs: number }) {
  const incidents = useQuery({
    ...orpc.incident.getIncidents.queryOptions({ input: { limit: 20 } }),
    refetchInterval: refreshMs,
  });
  const rows = incidents.data?.incidents ?? [];
  if (rows.length === 0) return null;
  return (
    <Alert color="orange" title="Open incidents" role="region" aria-label="Open incidents">
      <List>
        {rows.map((incident) => (
          <List.Item key={incident.id}>
            <Anchor component={Link} to={`/incidents/${incident.id}`}>
              {incident.title}
            </Anchor>{' '}
            ({incident.severity}, {incident.status})
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
