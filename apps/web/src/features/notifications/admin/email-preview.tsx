import { Button, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../../api/client.ts';
import { ErrorAlert } from '../../../ui/error-alert.tsx';

const sample = {
  title: 'Checkout is down',
  description: 'Since **12:00** the checkout answers `HTTP 503`.\n\n- 3 of 3 regions\n- retrying',
  importance: 'critical' as const,
  type: 'healthcheck.status_changed',
  action: { label: 'Open the incident', url: '/incidents/1' },
};

/**
 * The server's rendering of a sample e-mail in the strategy's current layout. It is shown in an
 * iframe with an empty `sandbox`: no script runs, no form posts, and it cannot reach this page.
 */
export function EmailPreview({ strategyId, name }: { strategyId: string; name: string }) {
  const [opened, setOpened] = useState(false);
  const preview = useQuery({
    ...orpc.notification.previewNotification.queryOptions({
      input: { strategyId, notification: sample },
    }),
    enabled: opened,
  });
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Preview e-mail
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`E-mail preview: ${name}`}
        size="xl"
      >
        <Stack gap="sm">
          <ErrorAlert error={preview.error} />
          {preview.data && (
            <>
              <Text size="sm">
                <strong>Subject:</strong> {preview.data.email.subject}
              </Text>
              <iframe
                title={`E-mail preview of ${name}`}
                sandbox=""
                srcDoc={preview.data.email.html}
                style={{
                  width: '100%',
                  height: 480,
                  border: '1px solid var(--mantine-color-default-border)',
                }}
                data-testid="email-preview"
              />
            </>
          )}
        </Stack>
      </Modal>
    </>
  );
}
