import { Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ColorSchemeToggle } from '../../ui/color-scheme-toggle.tsx';
import type { PublicPage } from './fetch-public-page.ts';
import { statusLook } from './public-status.ts';

/**
 * The page's logo, title and description under a strip of its brand colour, then its overall
 * status. A logo that cannot be loaded (another origin than the CSP's img-src allows, or gone)
 * is left out rather than shown broken.
 */
export function PageHeader({ page }: { page: PublicPage }) {
  const [logoFailed, setLogoFailed] = useState(false);
  const look = statusLook[page.status];
  return (
    <Stack gap="md">
      <Paper
        withBorder
        p="md"
        style={page.brandColor ? { borderTop: `4px solid ${page.brandColor}` } : undefined}
      >
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" align="center">
            {page.logoUrl && !logoFailed && (
              <Image
                src={page.logoUrl}
                alt={`${page.title} logo`}
                h={40}
                w="auto"
                fit="contain"
                referrerPolicy="no-referrer"
                onError={() => setLogoFailed(true)}
              />
            )}
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {page.title}
            </Title>
          </Group>
          <ColorSchemeToggle />
        </Group>
        {page.description && (
          <Text mt="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {page.description}
          </Text>
        )}
      </Paper>
      <Paper
        p="md"
        bg={`var(--mantine-color-${look.color}-light)`}
        style={{ borderLeft: `6px solid var(--mantine-color-${look.color}-filled)` }}
        data-testid="overall-status"
        data-status={page.status}
      >
        <Text fw={700} size="lg">
          {look.summary}
        </Text>
      </Paper>
    </Stack>
  );
}
