import { describe, expect, it } from 'vitest';
import { attachedListOfSystems, attachedToSystemsIn, SYSTEM_RESOURCE } from './access.ts';

describe('the team access helpers are named for the metadata they produce', () => {
  it('attachedToSystemsIn gives attachedTo: the input fields naming systems', () => {
    expect(attachedToSystemsIn('systemId', 'systemIds')).toEqual({
      attachedTo: { type: SYSTEM_RESOURCE, label: 'System', fields: ['systemId', 'systemIds'] },
    });
  });

  it('attachedListOfSystems gives attachedList: output items attached to systems', () => {
    expect(attachedListOfSystems('systemIds', 'groups')).toEqual({
      attachedList: { type: SYSTEM_RESOURCE, label: 'System', via: 'systemIds', field: 'groups' },
    });
    expect(attachedListOfSystems('systemId')).toEqual({
      attachedList: { type: SYSTEM_RESOURCE, label: 'System', via: 'systemId' },
    });
  });
});
