import { Group, SegmentedControl, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { mayCall } from '../../api/access.ts';
import { api } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { healthStatusOrder, type HealthStatusName } from '../../ui/health-status.tsx';
import { Page } from '../../ui/page.tsx';
import { countByStatus, filterRows } from './filter-rows.ts';
import { loadDashboard } from './load-dashboard.ts';
import { OpenIncidents } from './open-incidents.tsx';
import { EmptyList, SystemList } from './system-list.tsx';
import { Loading } from '../../ui/loading.tsx';

/**
 * How often the statuses are asked again while the dashboard is open: the API offers no stream of
 * health changes to the browser, so the dashboard polls.
 */
const DASHBOARD_REFRESH_MS = 10_000;

export function DashboardPage() {
  const me = useMe();
  const dashboard = useQuery({
    queryKey: ['dashboard'],
    queryFn: () => loadDashboard(api),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
  const [status, setStatus] = useState<HealthStatusName | 'all'>('all');
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState<string | null>(null);
  const [group, setGroup] = useState<string | null>(null);
  const rows = useMemo(() => dashboard.data?.rows ?? [], [dashboard.data]);
  const groupOptions = useMemo(
    () => (dashboard.data?.groups ?? []).map((kept) => ({ value: kept.id, label: kept.name })),
    [dashboard.data],
  );
  const counts = useMemo(() => countByStatus(rows), [rows]);
  const tags = useMemo(() => [...new Set(rows.flatMap((row) => row.tags))].sort(), [rows]);
  const shown = useMemo(
    () => filterRows(rows, { status, search, tag, group }),
    [rows, status, search, tag, group],
  );

  return (
    <Page title="Dashboard">
      <ErrorAlert error={dashboard.error} />
      {mayCall(me.data, contracts.incident.getIncidents) && (
        <OpenIncidents refreshMs={DASHBOARD_REFRESH_MS} />
      )}
      <SegmentedControl
        aria-label="Status"
        value={status}
        onChange={(value) => setStatus(value as HealthStatusName | 'all')}
        data={[
          { value: 'all', label: `all ${rows.length}` },
          ...healthStatusOrder.map((name) => ({
            value: name,
            label: `${name} ${counts[name]}`,
          })),
        ]}
        style={{ flexWrap: 'wrap' }}
      />
      <Group grow wrap="wrap">
        <TextInput
          label="Search"
          placeholder="System name"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <Select label="Group" clearable data={groupOptions} value={group} onChange={setGroup} />
        <Select label="Tag" clearable data={tags} value={tag} onChange={setTag} />
      </Group>
      {dashboard.isPending ? (
        <Loading label="Loading systems" />
      ) : shown.length === 0 ? (
        <EmptyList>{rows.length === 0 ? 'No systems yet.' : 'No system matches.'}</EmptyList>
      ) : (
        <SystemList rows={shown} />
      )}
    </Page>
  );
}
