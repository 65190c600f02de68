import { Loader } from '@mantine/core';

/**
 * The spinner shown while something loads. Its label sits on a status region: a bare Loader is a
 * span, which may not carry `aria-label` (axe: aria-prohibited-attr), so every one goes through here.
 */
export function Loading({ label }: { label: string }) {
  return <Loader role="status" aria-label={label} />;
}
