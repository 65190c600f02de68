import { Button } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, orpc } from '../../api/client.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import type { StatusPage } from './page-fields.ts';

/** Publishes a draft or takes a published page off the web; the server checks team reach. */
export function PublishButton({ page }: { page: StatusPage }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () =>
      page.published
        ? api.statuspage.unpublishPage({ id: page.id })
        : api.statuspage.publishPage({ id: page.id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orpc.statuspage.key() }),
  });
  return (
    <>
      <Button
        variant={page.published ? 'default' : 'filled'}
        loading={toggle.isPending}
        onClick={() => toggle.mutate()}
      >
        {page.published ? 'Unpublish' : 'Publish'}
      </Button>
      <ErrorAlert error={toggle.error} title="Not changed" />
    </>
  );
}
