import { Menu } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../api/client.ts';
import { errorMessage } from '../../api/errors.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { RowMenu } from '../../ui/row-menu.tsx';
import { ChangeExpiry } from './change-expiry.tsx';
import { RotateSecret } from './rotate-secret.tsx';
import { useRefreshApplications } from './use-applications.ts';

type Dialog = 'rotate' | 'expiry' | 'delete' | null;

export function ApplicationActions({
  application,
}: {
  application: { id: string; name: string; expiresAt: string | null };
}) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const refresh = useRefreshApplications();
  const remove = useMutation(
    orpc.auth.deleteApplication.mutationOptions({
      onSuccess: async () => {
        setDialog(null);
        await refresh();
      },
    }),
  );
  const close = () => setDialog(null);
  return (
    <>
      <RowMenu label={`Actions for ${application.name}`}>
        <Menu.Item onClick={() => setDialog('rotate')}>Rotate key</Menu.Item>
        <Menu.Item onClick={() => setDialog('expiry')}>Change expiry</Menu.Item>
        <Menu.Item color="red" onClick={() => setDialog('delete')}>
          Delete
        </Menu.Item>
      </RowMenu>
      <RotateSecret application={application} opened={dialog === 'rotate'} onClose={close} />
      {dialog === 'expiry' && <ChangeExpiry application={application} opened onClose={close} />}
      <ConfirmDialog
        opened={dialog === 'delete'}
        title={`Delete ${application.name}?`}
        confirmLabel="Delete application"
        loading={remove.isPending}
        onConfirm={() => remove.mutate({ id: application.id })}
        onClose={close}
      >
        Its key stops working at once. This cannot be undone.
        {remove.error ? ` ${errorMessage(remove.error)}` : ''}
      </ConfirmDialog>
    </>
  );
}
