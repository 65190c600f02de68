import { Badge } from '@mantine/core';
import type { PublicStatus } from './fetch-public-page.ts';
import { statusLook } from './public-status.ts';

/** An item's status as a badge with its word. */
export function StatusBadge({ status }: { status: PublicStatus }) {
  return (
    <Badge
      color={statusLook[status].color}
      variant="light"
      c="var(--mantine-color-text)"
      data-status={status}
    >
      {statusLook[status].word}
    </Badge>
  );
}
