import { Anchor, Badge, Button, Center, Table, Text } from '@mantine/core';
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
import { Loading } from '../../ui/loading.tsx';
import { Page } from '../../ui/page.tsx';
import { CreateStatusPage } from './create-status-page.tsx';

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
      {pages.isPending ? (
        <Center mih={120}>
          <Loading label="Loading status pages" />
        </Center>
      ) : rows.length === 0 ? (
        <Text c="dimmed">No status pages yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" aria-label="Status pages">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Title</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Changed</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
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
                    <Badge
                      color={page.published ? 'green' : 'gray'}
                      variant="light"
                      c="var(--mantine-color-text)"
                    >
                      {page.published ? 'Published' : 'Draft'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatTime(page.updatedAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages.hasNextPage && (
        <Button
          variant="default"
          w="fit-content"
          loading={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage()}
        >
          Load more
        </Button>
      )}
      {creating && <CreateStatusPage onClose={() => setCreating(false)} />}
    </Page>
  );
}
