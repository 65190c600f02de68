import { LightBadge } from './light-badge.tsx';

export const healthStatusOrder = [
  'unhealthy',
  'degraded',
  'maintenance',
  'unknown',
  'healthy',
] as const;
export type HealthStatusName = (typeof healthStatusOrder)[number];

const colors: Record<HealthStatusName, string> = {
  healthy: 'green',
  degraded: 'yellow',
  unhealthy: 'red',
  unknown: 'gray',
  maintenance: 'blue',
};

/** A system's health as a badge; the word is always shown, so colour is never the only cue. */
export function HealthBadge({ status }: { status: HealthStatusName }) {
  return (
    <LightBadge color={colors[status]} data-status={status}>
      {status}
    </LightBadge>
  );
}
