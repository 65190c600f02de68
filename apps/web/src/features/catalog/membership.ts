/** The calls that turn a group's members into the ones picked: who to add, who to remove. */
export function membershipChanges(
  current: readonly string[],
  picked: readonly string[],
): { add: string[]; remove: string[] } {
  const before = new Set(current);
  const after = new Set(picked);
  return {
    add: [...after].filter((id) => !before.has(id)),
    remove: [...before].filter((id) => !after.has(id)),
  };
}
