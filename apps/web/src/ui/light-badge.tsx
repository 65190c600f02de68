import type { BadgeProps } from '@mantine/core';
import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A light (tinted) badge whose words are in the text colour: the tint carries the meaning, and
 * the words keep their contrast on it in both colour schemes (a light badge's own coloured text
 * falls short of it).
 */
export function LightBadge({
  children,
  ...badge
}: Omit<BadgeProps, 'variant' | 'c'> & { children: ReactNode }) {
  return (
    <Badge variant="light" c="var(--mantine-color-text)" {...badge}>
      {children}
    </Badge>
  );
}
