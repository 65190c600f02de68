import { Box, Center, Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useEffect } from 'react';

/** The narrow card of the pages shown before signing in. */
export function CenteredCard({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Checkline`;
  }, [title]);
  return (
    <Center mih="100vh" p="md" component="main">
      <Box w="100%" maw={420}>
        <Paper withBorder shadow="sm" p="xl">
          <Title order={1} size="h3" mb="lg">
            {title}
          </Title>
          {children}
        </Paper>
      </Box>
    </Center>
  );
}
