import { useState } from 'react';

/**
 * The state of NameDescriptionFields, started from `initial`: spread it into the fields, read
 * `name` and `description` to save.
 */
export function useNameDescription(initial: { name: string; description: string }) {
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description);
  return { name, description, onName: setName, onDescription: setDescription };
}
