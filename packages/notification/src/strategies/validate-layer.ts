import type { InputIssue } from '@checkline/core';
import type { RegisteredStrategy } from './registry.ts';
import type { ValidatedLayer } from '@checkline/notification-node';

/**
 * The strategy's own judgement of a layer about to be stored (`validateConfig`), as input issues
 * under `field`, the name of the input field that carried the layer.
 */
export async function strategyLayerIssues(
  strategy: RegisteredStrategy,
  layer: ValidatedLayer<unknown, unknown, unknown>,
  field: string,
): Promise<InputIssue[]> {
  if (!strategy.validateConfig) return [];
  const issues = await strategy.validateConfig(layer);
  return issues.map((issue) => ({
    path: [field, issue.path].filter(Boolean).join('.'),
    message: issue.message,
  }));
}
