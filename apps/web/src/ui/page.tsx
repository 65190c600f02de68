import { Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useEffect } from 'react';

/** A screen of the app: its title (also the document's), actions beside it, then the content. */
export function Page({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Checkline`;
  }, [title]);
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={1} size="h2">
          {title}
        </Title>
        {actions}
      </Group>
      {children}
    </Stack>
  );
}
