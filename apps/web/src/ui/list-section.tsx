import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorAlert } from './error-alert.tsx';

/** A titled list on a screen: its action beside the title, its error, then the rows or `empty`. */
export function ListSection({
  id,
  title,
  action,
  error,
  isEmpty,
  empty,
  children,
}: {
  id: string;
  title: string;
  action?: ReactNode;
  error: unknown;
  isEmpty: boolean;
  empty: string;
  children: ReactNode;
}) {
  return (
    <Stack component="section" aria-labelledby={id} gap="xs">
      <Group justify="space-between">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {action}
      </Group>
      <ErrorAlert error={error} />
      {isEmpty ? <Text c="dimmed">{empty}</Text> : children}
    </Stack>
  );
}
