import { Anchor, Button, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { cursorPages } from '../../api/cursor-pages.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { LoadMore } from '../../ui/load-more.tsx';
import { QueryBody } from '../../ui/query-body.tsx';
import { Page } from '../../ui/page.tsx';
import { CreateStatusPage } from './create-status-page.tsx';
import { LightBadge } from '../../ui/light-badge.tsx';

/** Every status page the person may read, drafts included, by slug. */
export function StatusPagesPage() {
  const me = useMe();
  const [creating, setCreating] = useState(false);
  const pages = useInfiniteQuery(
    orpc.statuspage.getPages.infiniteOptions(cursorPages({ limit: 100 })),
  );
  const rows = pages.data?.pages.flatMap((page) => page.pages) ?? [];
  return (
    <Page
      title="Status pages"
      actions={
        mayCall(me.data, contracts.statuspage.createPage) && (
          <Button onClick={() => setCreating(true)}>New status page</Button>
        )
      }
    >
      <ErrorAlert error={pages.error} />
      <QueryBody
        pending={pages.isPending}
        loadingLabel="Loading status pages"
        isEmpty={rows.length === 0}
        empty={<Text c="dimmed">No status pages yet.</Text>}
      >
        <DataTable
          minWidth={560}
          verticalSpacing="sm"
          aria-label="Status pages"
          columns={['Title', 'Address', 'State', 'Changed']}
        >
          {rows.map((page) => (
            <Table.Tr key={page.id} data-page={page.slug}>
              <Table.Td>
                <Anchor component={Link} to={`/status-pages/${page.id}`}>
                  {page.title}
                </Anchor>
              </Table.Td>
              <Table.Td>
                {page.published ? (
                  <Anchor component={Link} to={`/status/${page.slug}`}>
                    /status/{page.slug}
                  </Anchor>
                ) : (
                  <Text size="sm">/status/{page.slug}</Text>
                )}
              </Table.Td>
              <Table.Td>
                <LightBadge color={page.published ? 'green' : 'gray'}>
                  {page.published ? 'Published' : 'Draft'}
                </LightBadge>
              </Table.Td>
              <Table.Td>{formatTime(page.updatedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      </QueryBody>
      <LoadMore query={pages} />
      {creating && <CreateStatusPage onClose={() => setCreating(false)} />}
    </Page>
  );
}
