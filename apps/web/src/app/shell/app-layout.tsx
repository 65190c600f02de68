import { AppShell, Burger, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink as RouterNavLink, Outlet, useLocation } from 'react-router';
import { useEffect } from 'react';
import { useMe } from '../../api/me.ts';
import { UserMenu } from '../../features/auth/index.ts';
import { UnreadBadge } from '../../features/notifications/index.tsx';
import { ColorSchemeToggle } from '../../ui/color-scheme-toggle.tsx';
import { navEntries } from './nav-entries.ts';

/** Header (menu button under 768 px, name, colour scheme, account) and navigation. */
export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure();
  const me = useMe();
  const location = useLocation();
  useEffect(close, [location.pathname, close]);
  const entries = me.data ? navEntries.filter((entry) => entry.mayOpen(me.data)) : [];

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
            <Text component={Link} to="/" fw={700} size="lg">
              Checkline
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <UnreadBadge />
            <ColorSchemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        <NavLink component={RouterNavLink} to="/" end label="Dashboard" variant="filled" />
        {entries.map((entry) => (
          <NavLink
            key={entry.to}
            component={RouterNavLink}
            to={entry.to}
            label={entry.label}
            variant="filled"
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <main>
          <Outlet />
        </main>
      </AppShell.Main>
    </AppShell>
  );
}
