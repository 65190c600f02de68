export { checkTypeHarness, type CheckTypeHarness } from './check-type-harness.ts';
export { loopbackTargets } from './loopback-targets.ts';
export {
  closedPort,
  startHttpTarget,
  startTcpTarget,
  type Behaviour,
  type HttpTarget,
} from './targets.ts';
