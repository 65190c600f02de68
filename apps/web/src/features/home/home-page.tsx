import { Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useMe } from '../../api/me.ts';
import { Page } from '../../ui/page.tsx';
import type { NavEntry } from '../../ui/nav-entry.ts';

/** The landing screen: who is signed in and the screens they may open. */
export function HomePage({ entries }: { entries: readonly NavEntry[] }) {
  const me = useMe();
  const open = me.data ? entries.filter((entry) => entry.mayOpen(me.data)) : [];
  return (
    <Page title="Overview">
      <Text>Welcome{me.data?.name ? `, ${me.data.name}` : ''}.</Text>
      {open.length > 0 ? (
        <List>
          {open.map((entry) => (
            <List.Item key={entry.to}>
              <Anchor component={Link} to={entry.to}>
                {entry.label}
              </Anchor>
            </List.Item>
          ))}
        </List>
      ) : (
        <Text c="dimmed">There is nothing here your account may manage yet.</Text>
      )}
    </Page>
  );
}
