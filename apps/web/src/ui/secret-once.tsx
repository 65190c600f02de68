import { Alert, Button, Code, CopyButton, Modal, Stack } from '@mantine/core';

/** A new secret, shown this one time with a copy button and a warning. */
export function SecretOnce({
  secret,
  title,
  onClose,
}: {
  secret: string | null;
  title: string;
  onClose: () => void;
}) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title={title} centered size="lg">
      <Stack>
        <Alert color="yellow" title="Copy it now">
          This key is shown only once. Checkline keeps only a hash of it; if it is lost, rotate the
          key.
        </Alert>
        <Code
          block
          data-testid="new-secret"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {secret}
        </Code>
        <CopyButton value={secret ?? ''}>
          {({ copied, copy }) => (
            <Button onClick={copy} color={copied ? 'teal' : undefined} w="fit-content">
              {copied ? 'Copied' : 'Copy key'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={onClose} w="fit-content">
          Done
        </Button>
      </Stack>
    </Modal>
  );
}
