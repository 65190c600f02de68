import { Button } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ModalForm } from '../../ui/modal-form.tsx';
import { useNameDescription } from '../../ui/use-name-description.ts';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { toInstant } from '../../ui/to-instant.ts';
import { useRefreshApplications } from './use-applications.ts';
import { NameDescriptionFields } from '../../ui/name-description-fields.tsx';

export function CreateApplication() {
  const [opened, setOpened] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const fields = useNameDescription({ name: '', description: '' });
  const [expires, setExpires] = useState<string | null>(null);
  const refresh = useRefreshApplications();
  const create = useMutation(
    orpc.auth.createApplication.mutationOptions({
      onSuccess: async (created) => {
        setOpened(false);
        fields.onName('');
        fields.onDescription('');
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
      <ModalForm
        title="New application"
        opened={opened}
        onClose={() => setOpened(false)}
        centered
        onSubmit={() =>
          create.mutate({
            name: fields.name,
            description: fields.description,
            expiresAt: toInstant(expires),
          })
        }
        error={create.error}
        saving={create.isPending}
        submitLabel="Create"
      >
        <NameDescriptionFields {...fields} issues={issues} />
        <DateTimePicker
          label="Expires"
          description="In your time zone; leave empty for never."
          clearable
          minDate={new Date()}
          value={expires}
          error={issues.expiresAt}
          onChange={setExpires}
        />
      </ModalForm>
      <SecretOnce title="The application's key" secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
