import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog.tsx';

/** Asks, then deletes with `remove`; on success it closes and every query is asked again. */
export function ConfirmDelete({
  title,
  onClose,
  remove,
  children,
}: {
  title: string;
  onClose: () => void;
  remove: () => Promise<unknown>;
  children: ReactNode;
}) {
  const queryClient = useQueryClient();
  const deleting = useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      onClose();
      await queryClient.invalidateQueries();
    },
  });
  return (
    <ConfirmDialog
      opened
      title={title}
      confirmLabel="Delete"
      loading={deleting.isPending}
      error={deleting.error}
      onClose={onClose}
      onConfirm={() => deleting.mutate()}
    >
      {children}
    </ConfirmDialog>
  );
}
