type LogFn = (objOrMessage: unknown, message?: string) => void;

/** The part of pino's logger that plugins use. */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

/**
 * A child logger made only when first used: most requests log nothing, and making a pino child
 * (which serialises its bindings) for each of them is measurable on the hot path.
 */
export function lazyChild(parent: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const get = () => (child ??= parent.child(bindings));
  return {
    debug: (objOrMessage, message) => get().debug(objOrMessage, message),
    info: (objOrMessage, message) => get().info(objOrMessage, message),
    warn: (objOrMessage, message) => get().warn(objOrMessage, message),
    error: (objOrMessage, message) => get().error(objOrMessage, message),
    child: (more) => get().child(more),
  };
}
