import { Button, Modal, Stack } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { toInstant } from '../../ui/to-instant.ts';
import { useRefreshApplications } from './use-applications.ts';
import { NameDescriptionFields } from '../../ui/name-description-fields.tsx';

export function CreateApplication() {
  const [opened, setOpened] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [expires, setExpires] = useState<string | null>(null);
  const refresh = useRefreshApplications();
  const create = useMutation(
    orpc.auth.createApplication.mutationOptions({
      onSuccess: async (created) => {
        setOpened(false);
        setName('');
        setDescription('');
        setExpires(null);
        setSecret(created.secret);
        await refresh();
      },
    }),
  );
  const issues = fieldIssues(create.error);

  return (
    <>
      <Button onClick={() => setOpened(true)}>New application</Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="New application" centered>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate({ name, description, expiresAt: toInstant(expires) });
          }}
        >
          <Stack>
            {Object.keys(issues).length === 0 && <ErrorAlert error={create.error} />}
            <NameDescriptionFields
              name={name}
              description={description}
              issues={issues}
              onName={setName}
              onDescription={setDescription}
            />
            <DateTimePicker
              label="Expires"
              description="In your time zone; leave empty for never."
              clearable
              minDate={new Date()}
              value={expires}
              error={issues.expiresAt}
              onChange={setExpires}
            />
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Stack>
        </form>
      </Modal>
      <SecretOnce title="The application's key" secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
