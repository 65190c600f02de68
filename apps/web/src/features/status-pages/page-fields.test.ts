import { describe, expect, it } from 'vitest';
import { fieldsOf, itemKey, itemOf, movedUp, updateOf, type StatusPage } from './page-fields.ts';

const systemId = '0b3c2a6e-1f6c-4c2e-9d1e-6a7b8c9d0e1f';
const groupId = '5d2f1e0c-3b4a-4c5d-8e6f-7a8b9c0d1e2f';

const stored: StatusPage = {
  id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
  slug: 'acme',
  title: 'Acme',
  description: '',
  logoUrl: null,
  brandColor: '#123abc',
  customDomain: null,
  sections: [
    {
      title: 'Core',
      items: [
        { kind: 'system', systemId, displayName: 'API' },
        { kind: 'group', groupId, displayName: 'Web' },
      ],
    },
  ],
  published: false,
  systemIds: [systemId],
  createdAt: '2026-11-26T00:00:00.000Z',
  updatedAt: '2026-11-26T00:00:00.000Z',
};

describe('the edit form’s fields', () => {
  it('send back what they were given, with empty text as null', () => {
    expect(updateOf(stored.id, fieldsOf(stored))).toEqual({
      id: stored.id,
      slug: 'acme',
      title: 'Acme',
      description: '',
      logoUrl: null,
      brandColor: '#123abc',
      customDomain: null,
      sections: stored.sections,
    });
  });

  it('trim the optional text fields and clear those left blank', () => {
    const update = updateOf(stored.id, {
      ...fieldsOf(stored),
      slug: ' acme-co ',
      logoUrl: ' https://example.com/logo.png ',
      brandColor: '  ',
      customDomain: 'status.example.com',
    });
    expect(update).toMatchObject({
      slug: 'acme-co',
      logoUrl: 'https://example.com/logo.png',
      brandColor: null,
      customDomain: 'status.example.com',
    });
  });

  it('name a system or group by one picker value and back', () => {
    for (const item of stored.sections[0]!.items) {
      expect(itemOf(itemKey(item), item.displayName)).toEqual(item);
    }
  });
});

describe('movedUp', () => {
  it('swaps an entry with the one before it and leaves the list given alone', () => {
    const list = ['a', 'b', 'c'];
    expect(movedUp(list, 2)).toEqual(['a', 'c', 'b']);
    expect(movedUp(list, 1)).toEqual(['b', 'a', 'c']);
    expect(list).toEqual(['a', 'b', 'c']);
  });

  it('changes nothing for the first entry or an index outside the list', () => {
    expect(movedUp(['a', 'b'], 0)).toEqual(['a', 'b']);
    expect(movedUp(['a', 'b'], 5)).toEqual(['a', 'b']);
  });
});
