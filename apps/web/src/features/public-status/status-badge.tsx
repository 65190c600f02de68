import type { PublicStatus } from './fetch-public-page.ts';
import { statusLook } from './public-status.ts';
import { LightBadge } from '../../ui/light-badge.tsx';

/** An item's status as a badge with its word. */
export function StatusBadge({ status }: { status: PublicStatus }) {
  return (
    <LightBadge color={statusLook[status].color} data-status={status}>
      {statusLook[status].word}
    </LightBadge>
  );
}
