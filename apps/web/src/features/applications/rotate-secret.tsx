import { Button, Modal, Select, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../api/client.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';

const gracePeriods = [
  { value: '0', label: 'None: the old key stops now' },
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '7 days' },
];

export function RotateSecret({
  application,
  opened,
  onClose,
}: {
  application: { id: string; name: string };
  opened: boolean;
  onClose: () => void;
}) {
  const [grace, setGrace] = useState('0');
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useMutation(
    orpc.auth.regenerateApplicationSecret.mutationOptions({
      onSuccess: (answer) => {
        onClose();
        setSecret(answer.secret);
      },
    }),
  );
  return (
    <>
      <Modal opened={opened} onClose={onClose} title={`Rotate the key of ${application.name}`}>
        <Stack>
          <ErrorAlert error={rotate.error} />
          <Text>A new key is made and shown once. Until when may the old key still work?</Text>
          <Select
            label="Grace period for the old key"
            data={gracePeriods}
            value={grace}
            allowDeselect={false}
            onChange={(value) => setGrace(value ?? '0')}
          />
          <Button
            loading={rotate.isPending}
            onClick={() => rotate.mutate({ id: application.id, gracePeriodSeconds: Number(grace) })}
          >
            Rotate key
          </Button>
        </Stack>
      </Modal>
      <SecretOnce title="The new key" secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
