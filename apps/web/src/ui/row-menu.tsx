import type { ActionIconProps } from '@mantine/core';
import { ActionIcon, Menu } from '@mantine/core';
import type { ReactNode } from 'react';

/** The “⋯” button of a row or card opening its actions (Menu.Item children), named by `label`. */
export function RowMenu({
  label,
  variant = 'default',
  children,
}: {
  label: string;
  variant?: ActionIconProps['variant'];
  children: ReactNode;
}) {
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <ActionIcon variant={variant} aria-label={label}>
          <span aria-hidden="true">⋯</span>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
