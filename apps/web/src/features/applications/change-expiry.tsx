import { Button, Modal, Stack } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useMutation } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { toInstant } from '../../ui/to-instant.ts';
import { useRefreshApplications } from './use-applications.ts';

export function ChangeExpiry({
  application,
  opened,
  onClose,
}: {
  application: { id: string; name: string; expiresAt: string | null };
  opened: boolean;
  onClose: () => void;
}) {
  const [expires, setExpires] = useState<string | null>(
    application.expiresAt ? dayjs(application.expiresAt).format('YYYY-MM-DD HH:mm:ss') : null,
  );
  const refresh = useRefreshApplications();
  const update = useMutation(
    orpc.auth.updateApplication.mutationOptions({
      onSuccess: async () => {
        onClose();
        await refresh();
      },
    }),
  );
  const issues = fieldIssues(update.error);
  return (
    <Modal opened={opened} onClose={onClose} title={`Expiry of ${application.name}`}>
      <Stack>
        {!issues.expiresAt && <ErrorAlert error={update.error} />}
        <DateTimePicker
          label="Expires"
          description="In your time zone; empty for never."
          clearable
          minDate={new Date()}
          value={expires}
          error={issues.expiresAt}
          onChange={setExpires}
        />
        <Button
          loading={update.isPending}
          onClick={() => update.mutate({ id: application.id, expiresAt: toInstant(expires) })}
        >
          Save expiry
        </Button>
      </Stack>
    </Modal>
  );
}
