import { Avatar, Menu, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useMe } from '../../api/me.ts';
import { errorMessage } from '../../api/errors.ts';
import { signOut } from '../../api/session-routes.ts';

export function UserMenu() {
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOutAndLeave = useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      queryClient.clear();
      await navigate('/sign-in', { replace: true });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const label = me.data?.name || me.data?.email || 'Account';
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <UnstyledButton aria-label={`Account menu of ${label}`}>
          <Avatar radius="xl" size="md" color="blue" />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{label}</Menu.Label>
        <Menu.Item component={Link} to="/account">
          My account
        </Menu.Item>
        <Menu.Item onClick={() => signOutAndLeave.mutate()}>Sign out</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
