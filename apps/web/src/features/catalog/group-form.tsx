import { useState } from 'react';
import { api } from '../../api/client.ts';
import { FormDialog, type FieldsFormProps } from '../../ui/form-dialog.tsx';
import { membershipChanges } from './membership.ts';
import { SystemsPicker } from '../../ui/systems-picker.tsx';
import { NameDescriptionFields } from '../../ui/name-description-fields.tsx';
import { useNameDescription } from '../../ui/use-name-description.ts';

export interface GroupFields {
  id?: string;
  name: string;
  description: string;
  systemIds: string[];
}

export const emptyGroup: GroupFields = { name: '', description: '', systemIds: [] };

/** Saves the group, then adds and removes members one call each (the API's membership calls). */
async function saveGroup(initial: GroupFields, fields: GroupFields) {
  const group = initial.id
    ? await api.catalog.updateGroup({
        id: initial.id,
        name: fields.name,
        description: fields.description,
      })
    : await api.catalog.createGroup({ name: fields.name, description: fields.description });
  const { add, remove } = membershipChanges(group.systemIds, fields.systemIds);
  for (const systemId of add) await api.catalog.addSystemToGroup({ groupId: group.id, systemId });
  for (const systemId of remove) {
    await api.catalog.removeSystemFromGroup({ groupId: group.id, systemId });
  }
}

/** A group's name, description and member systems: to create or edit one. */
export function GroupForm({ initial, ...dialog }: Omit<FieldsFormProps<GroupFields>, 'save'>) {
  const fields = useNameDescription(initial);
  const { name, description } = fields;
  const [systemIds, setSystemIds] = useState(initial.systemIds);
  return (
    <FormDialog {...dialog} save={() => saveGroup(initial, { name, description, systemIds })}>
      {(issues) => (
        <>
          <NameDescriptionFields {...fields} issues={issues} />
          <SystemsPicker label="Systems" value={systemIds} onChange={setSystemIds} />
        </>
      )}
    </FormDialog>
  );
}
