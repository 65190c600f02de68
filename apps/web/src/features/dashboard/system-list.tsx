import { Anchor, Group, Paper, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { Link } from 'react-router';
import { HealthBadge } from '../../ui/health-status.tsx';
import type { DashboardRow } from './load-dashboard.ts';
import { LightBadge } from '../../ui/light-badge.tsx';

const ROW_HEIGHT = 48;

/** Only the rows in view are in the page, so thousands of systems stay quick to draw. */
export function SystemList({ rows }: { rows: readonly DashboardRow[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  return (
    <Paper withBorder>
      <div
        ref={scroller}
        style={{ height: 'min(70vh, 900px)', overflowY: 'auto' }}
        role="list"
        aria-label="Systems"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={row.id}
                role="listitem"
                data-system={row.name}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                  borderBottom: '1px solid var(--mantine-color-default-border)',
                }}
              >
                <Group h="100%" px="md" justify="space-between" wrap="nowrap">
                  <Anchor component={Link} to={`/systems/${row.id}`} truncate="end">
                    {row.name}
                  </Anchor>
                  <Group gap="xs" wrap="nowrap">
                    {row.late && <LightBadge color="orange">late</LightBadge>}
                    <HealthBadge status={row.status} />
                  </Group>
                </Group>
              </div>
            );
          })}
        </div>
      </div>
    </Paper>
  );
}

export function EmptyList({ children }: { children: string }) {
  return <Text c="dimmed">{children}</Text>;
}
